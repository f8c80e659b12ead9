package io.partita.job;

import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.Ledger;
import io.partita.account.LedgerProcessor;
import io.partita.account.TxRequest;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * A FEE or INTEREST job on one account: checks whether the job's run already processed it and, if not, applies the
 * job's movement and remembers the run, in one step, so no run moves money twice on an account. It runs on the
 * partition thread of the account's owner, sent there in small batches by {@link PartitionTask}; the time travels in
 * the processor, and its backup is an {@link io.partita.account.AccountBackup}.
 */
@ClassId(61)
final class ApplyJob extends LedgerProcessor<JobStep, ApplyJob> implements FieldList {

    /*
     * Exactly once
     *
     * Exactly once rests on two records in the account's own partition: the job's run key (<jobId>/<run>) in
     * Account.jobs() (every outcome, including "no money moved"), and the movement's entry under txId
     * job/<jobId>/<run>, which Ledger.decide finds in the tail or the journal like any retried transaction once the key
     * has left that short list. Both name the run, not only the id: a job started under the id of one that finished and
     * expired is a new job here, and moves money again. The movement itself is decided by the ledger's rules: a fee the
     * overdraft limit does not allow is REJECTED. The backup receives the appended entry and the run key
     * (io.partita.account.AccountBackup); the journal writer copies the entry to the journal.
     *
     * An entry that is not the job's
     *
     * An entry found under the run's txId counts as this job's own only when it is one: type FEE or INTEREST with ref =
     * the job's id. Clients cannot write such a txId (it holds '/'), so another entry there means the ledger was
     * written around the API; the account is then counted as skipped (no money moved), never as charged or paid.
     */

    private String jobId;
    private String run;
    private JobSpec spec;
    private long at;

    ApplyJob() {
    }

    /** @param at epoch milliseconds stamped on the journal entry, read by the caller (never a clock in here) */
    ApplyJob(String jobId, String run, JobSpec spec, long at) {
        this.jobId = jobId;
        this.run = run;
        this.spec = spec;
        this.at = at;
    }

    @Override
    public JobStep process(Map.Entry<String, Account> entry) {
        int partition = ledger.visit(entry);
        Account account = entry.getValue();
        if (account == null) {
            return JobStep.missing();
        }
        String accountId = entry.getKey();
        String runKey = JobRules.runKey(jobId, run);
        if (account.hasSeenJob(runKey)) {
            JournalEntry previous = account.recorded(accountId, JobRules.txId(jobId, run));
            if (previous == null) {
                previous = ledger.known(partition, accountId, JobRules.txId(jobId, run), account.version());
            }
            return previous != null && JobRules.isMovementOf(previous, spec, jobId)
                    ? JobStep.replayed(previous) : JobStep.skipped();
        }
        TxRequest request = JobRules.request(spec, jobId, run, account, at);
        if (request == null) {
            ledger.recordForJob(entry, partition, account, account.withJob(runKey), List.of(), runKey);
            return JobStep.skipped();
        }
        Ledger.Decision decision = ledger.decide(partition, accountId, account, request);
        if (decision.recorded() == null) {
            JournalEntry previous = decision.outcome().entry();
            // The run key has left the account's short list, but the tail or the journal still knows the movement (a
            // replay, or a "conflict" when interest on a since-changed balance would differ): it stays as first
            // recorded. Anything else under this txId is not the job's (see above): nothing moves, and nothing is
            // stored, so a redo decides the same.
            return JobRules.isMovementOf(previous, spec, jobId) ? JobStep.replayed(previous) : JobStep.skipped();
        }
        ledger.recordForJob(entry, partition, account, decision.apply(account).withJob(runKey),
                List.of(decision.recorded()), runKey);
        return JobStep.recorded(decision.recorded());
    }

    @Override
    public void fields(Fields fields) throws IOException {
        jobId = fields.string(jobId);
        run = fields.string(run);
        spec = fields.value(spec, JobFeature::writeSpec, JobFeature::readSpec);
        at = fields.int64(at);
    }
}
