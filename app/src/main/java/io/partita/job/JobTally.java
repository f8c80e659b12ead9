package io.partita.job;

import java.util.List;
import java.util.TreeSet;

/**
 * What a job did, counted over one partition or summed over the partitions done so far.
 *
 * @param accounts    accounts processed
 * @param applied     FEE and INTEREST: money moved
 * @param rejected    FEE: could not pay within the overdraft limit; INTEREST: the balance would pass the maximum
 * @param skipped     INTEREST: the balance earned nothing (not positive, or the interest rounds to 0). FEE and
 *                    INTEREST: no money moved because the account's record of this job is gone (it holds the run,
 *                    but the journal entry expired under partita.journal.retention while the job ran) or the journal
 *                    holds an entry under the job's txId that is not the job's (written around the API)
 * @param moved       FEE and INTEREST: the sum of the amounts applied
 * @param mismatches  AUDIT: accounts whose balance differs from what their journal explains
 * @param mismatchIds AUDIT: the first {@link #MISMATCH_IDS_KEPT} of them in id order, so the answer does not depend on
 *                    which partition finished first
 * @param mergeConflicts AUDIT: accounts a split-brain merge left below their overdraft limit (both sides debited
 *                    them); their balances agree with their journals, so they are not mismatches
 */
public record JobTally(long accounts, long applied, long rejected, long skipped, long moved, long mismatches,
                List<String> mismatchIds, long mergeConflicts) {

    static final int MISMATCH_IDS_KEPT = 10;
    static final JobTally EMPTY = new JobTally(0, 0, 0, 0, 0, 0, List.of());

    public JobTally {
        mismatchIds = List.copyOf(mismatchIds);
    }

    public JobTally(long accounts, long applied, long rejected, long skipped, long moved, long mismatches,
                    List<String> mismatchIds) {
        this(accounts, applied, rejected, skipped, moved, mismatches, mismatchIds, 0);
    }

    static JobTally audited(long accounts, List<String> mismatched, long mergeConflicts) {
        return new JobTally(accounts, 0, 0, 0, 0, mismatched.size(),
                mismatched.stream().sorted().limit(MISMATCH_IDS_KEPT).toList(), mergeConflicts);
    }

    JobTally plus(JobTally other) {
        TreeSet<String> ids = new TreeSet<>(mismatchIds);
        ids.addAll(other.mismatchIds);
        return new JobTally(accounts + other.accounts, applied + other.applied, rejected + other.rejected,
                skipped + other.skipped, moved + other.moved, mismatches + other.mismatches,
                ids.stream().limit(MISMATCH_IDS_KEPT).toList(), mergeConflicts + other.mergeConflicts);
    }
}
