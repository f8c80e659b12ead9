package io.partita.job;

import io.partita.account.Account;
import io.partita.account.JournalEntry;
import io.partita.account.Ledger;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a job does to one account, as pure functions: no clock, no grid. {@link ApplyJob} and the AUDIT half of
 * {@link PartitionTask} decide with them, and the tests call them directly.
 */
final class JobRules {

    private static final BigDecimal BASIS_POINTS = BigDecimal.valueOf(10_000);

    private JobRules() {
    }

    /**
     * What an account records in its list of jobs seen ({@link Account#jobs()}): the job's id and its run, so that a
     * job started under the id of one that finished and expired (partita.jobs.retention) is a new job to the account,
     * not one it has seen. Ids cannot contain '/' ({@link io.partita.web.Ids#PATTERN}), so the split is unambiguous.
     *
     * <p>Why a run and not keeping a used id taken: an account keeps the last {@link Account#JOBS_KEPT} jobs however
     * old they are, so an id would have to stay taken for ever, a record per job that never expires (a schedule
     * firing every second leaves 86,400 a day). With the run, a reused id is simply a new job, as the API says once
     * the old one is gone.
     */
    static String runKey(String jobId, String run) {
        return jobId + "/" + run;
    }

    /**
     * The transaction id of a job's movement on an account: one per run and account, like a client's txId. The
     * {@code job/} prefix holds a '/', which no client txId may contain, so a client's transaction can never stand in
     * for a job's (transfers use {@code transfer-out/<id>} the same way); the run tells two jobs of one id apart.
     */
    static String txId(String jobId, String run) {
        return "job/" + runKey(jobId, run);
    }

    /** Whether {@code entry} is the movement a job of {@code spec} and {@code jobId} recorded, not another one. */
    static boolean isMovementOf(JournalEntry entry, JobSpec spec, String jobId) {
        TxType type = switch (spec.type()) {
            case FEE -> TxType.FEE;
            case INTEREST -> TxType.INTEREST;
            case AUDIT -> null;
        };
        return entry.type() == type && jobId.equals(entry.ref());
    }

    /**
     * {@code balance * rateBasisPoints / 10000} in whole minor units, rounded half-even (banker's rounding: 2.5 is 2,
     * 3.5 is 4), so that rounding neither favours the bank nor the customer over many accounts. Exact: BigDecimal,
     * no floating point. 0 for a balance that is not positive.
     */
    static long interest(long balance, int rateBasisPoints) {
        if (balance <= 0) {
            return 0;
        }
        return BigDecimal.valueOf(balance)
                .multiply(BigDecimal.valueOf(rateBasisPoints))
                .divide(BASIS_POINTS, 0, RoundingMode.HALF_EVEN)
                .longValueExact();
    }

    /**
     * The transaction a FEE or INTEREST job makes on {@code account}, or null when it moves no money (interest on a
     * balance that earns nothing). The ledger then decides it like any transaction: a fee the overdraft limit does
     * not allow is recorded as REJECTED, and the run's txId doubles as the transaction's duplicate check. Interest is
     * paid up to {@link Ledger#MAX_AMOUNT} per account and job, the most any one transaction moves (a balance above
     * 10^15 at 100 % would earn more): the journal never holds an amount a client could not have sent.
     */
    static TxRequest request(JobSpec spec, String jobId, String run, Account account, long at) {
        return switch (spec.type()) {
            case FEE -> new TxRequest(txId(jobId, run), TxType.FEE, spec.amount(), at, jobId);
            case INTEREST -> {
                long interest = Math.min(interest(account.balance(), spec.rateBasisPoints()), Ledger.MAX_AMOUNT);
                yield interest == 0 ? null : new TxRequest(txId(jobId, run), TxType.INTEREST, interest, at, jobId);
            }
            case AUDIT -> throw new IllegalArgumentException("An audit moves no money");
        };
    }

    /**
     * The balance the account's history explains: its opening balance plus every applied entry, when the history is
     * whole (the oldest entry is the account's first). When older entries have expired from the journal (its
     * retention), the balance before the oldest retained entry is taken from that entry and the rest is added on.
     *
     * @param journal the account's journal entries; the account's tail is added to them, so that an entry the journal
     *                writer has not copied yet counts
     */
    static long explainedBalance(String accountId, Account account, Collection<JournalEntry> journal) {
        Map<String, JournalEntry> byTxId = new LinkedHashMap<>();
        journal.forEach(entry -> byTxId.put(entry.txId(), entry));
        account.tailEntries(accountId).forEach(entry -> byTxId.put(entry.txId(), entry));
        List<JournalEntry> history = new ArrayList<>(byTxId.values());
        history.sort(Comparator.comparingLong(JournalEntry::seq));
        if (history.isEmpty()) {
            return account.openingBalance();
        }
        JournalEntry oldest = history.get(0);
        long balance = oldest.seq() == 1 ? account.openingBalance() : oldest.balanceAfter() - applied(oldest);
        for (JournalEntry entry : history) {
            balance += applied(entry);
        }
        return balance;
    }

    static boolean balanced(String accountId, Account account, Collection<JournalEntry> journal) {
        return explainedBalance(accountId, account, journal) == account.balance();
    }

    private static long applied(JournalEntry entry) {
        return entry.status() == TxStatus.APPLIED ? entry.type().delta(entry.amount()) : 0;
    }
}
