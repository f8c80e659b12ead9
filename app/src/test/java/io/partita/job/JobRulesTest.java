package io.partita.job;

import io.partita.account.Account;
import io.partita.account.FakeLedgerHost;
import io.partita.account.JournalEntry;
import io.partita.account.JournalRecord;
import io.partita.account.Ledger;
import io.partita.account.Tail;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.schedule.Schedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The job's rules and its entry processor as plain functions on an entry, before any cluster is involved. */
class JobRulesTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final JobSpec FEE_100 = new JobSpec(JobType.FEE, 100, 0, false);
    private static final JobSpec INTEREST_25 = new JobSpec(JobType.INTEREST, 0, 25, false);

    @ParameterizedTest(name = "{0} at {1} bp earns {2}")
    @CsvSource({
            // balance, basis points, interest: balance * bp / 10000, half-even on whole minor units
            "1000, 25, 2",          // 2.5 -> 2 (to the even neighbour)
            "1400, 25, 4",          // 3.5 -> 4 (to the even neighbour)
            "600, 25, 2",           // 1.5 -> 2
            "200, 25, 0",           // 0.5 -> 0
            "1, 5000, 0",           // 0.5 -> 0
            "3, 5000, 2",           // 1.5 -> 2
            "12345, 100, 123",      // 123.45 -> 123
            "12355, 100, 124",      // 123.55 -> 124
            "99, 10000, 99",        // 100 %
            "1000000, 25, 2500",
            "10, 25, 0",            // 0.025 -> 0
            "0, 25, 0",
            "-500, 25, 0",          // no interest on a negative balance
            "1000000000000000000, 10000, 1000000000000000000"
    })
    void shouldComputeInterestHalfEvenOnWholeMinorUnits(long balance, int basisPoints, long interest) {
        assertEquals(interest, JobRules.interest(balance, basisPoints));
    }

    private final FakeLedgerHost host = new FakeLedgerHost();

    private static Map.Entry<String, Account> account(long balance, long overdraft) {
        return new AbstractMap.SimpleEntry<>("a-1", Account.open(balance, overdraft));
    }

    private JobStep run(Map.Entry<String, Account> entry, String jobId, JobSpec spec) {
        return run(entry, jobId, "r1", spec, NOW);
    }

    private JobStep run(Map.Entry<String, Account> entry, String jobId, String run, JobSpec spec, long at) {
        return new ApplyJob(jobId, run, spec, at).on(host).process(entry);
    }

    private static Account credited(Account account, String txId, long amount) {
        return Ledger.decide("a-1", account, TxRequest.of(txId, TxType.CREDIT, amount, NOW), id -> null)
                .apply(account);
    }

    @Test
    void shouldChargeAFeeOnceAndRecordItUnderTheJobsTxId() {
        var entry = account(1_000, 0);
        JobStep first = run(entry, "j-1", FEE_100);

        assertEquals(JobStep.Kind.RECORDED, first.kind());
        assertEquals("job/j-1/r1", first.entry().txId());
        assertEquals("j-1", first.entry().ref());
        assertEquals(TxType.FEE, first.entry().type());
        assertEquals(TxStatus.APPLIED, first.entry().status());
        assertEquals(900, entry.getValue().balance());
        assertEquals(1, entry.getValue().version());
        assertEquals(List.of("j-1/r1"), entry.getValue().jobs());

        JobStep again = run(entry, "j-1", FEE_100);
        assertEquals(JobStep.Kind.REPLAYED, again.kind());
        assertEquals(first.entry(), again.entry());
        assertEquals(900, entry.getValue().balance());
        assertEquals(new JobTally(1, 1, 0, 0, 100, 0, List.of()), again.tally());
    }

    @Test
    void shouldRecordAFeeTheOverdraftLimitDoesNotAllowAsRejected() {
        var entry = account(50, 30);
        JobStep step = run(entry, "j-1", FEE_100);

        assertEquals(TxStatus.REJECTED, step.entry().status());
        assertEquals(50, entry.getValue().balance());
        assertTrue(entry.getValue().hasSeenJob("j-1/r1"));
        assertEquals(new JobTally(1, 0, 1, 0, 0, 0, List.of()), step.tally());

        var withinLimit = account(50, 50);
        assertEquals(TxStatus.APPLIED, run(withinLimit, "j-1", FEE_100).entry().status());
        assertEquals(-50, withinLimit.getValue().balance());
    }

    @Test
    void shouldRememberAnInterestJobThatPaidNothingSoARedoDoesNotPayLater() {
        var entry = account(200, 0);
        assertEquals(JobStep.Kind.SKIPPED, run(entry, "j-1", INTEREST_25).kind());
        assertEquals(200, entry.getValue().balance());
        assertEquals(0, entry.getValue().version());

        // The balance grows before the partition is redone: the job already decided for this account.
        entry.setValue(credited(entry.getValue(), "t-1", 10_000));
        assertEquals(JobStep.Kind.SKIPPED, run(entry, "j-1", INTEREST_25).kind());
        assertEquals(10_200, entry.getValue().balance());

        JobStep paid = run(entry, "j-2", INTEREST_25);
        assertEquals(TxStatus.APPLIED, paid.entry().status());
        assertEquals(26, paid.entry().amount());   // 25.5 -> 26
        assertEquals(10_226, entry.getValue().balance());
    }

    @Test
    void shouldFindAJobInTheJournalOnceItsIdHasLeftTheAccountsShortList() {
        var entry = account(10_000, 0);
        JournalEntry first = null;
        for (int i = 0; i <= Account.JOBS_KEPT + 2; i++) {
            JournalEntry recorded = run(entry, "j-" + i, FEE_100).entry();
            first = first == null ? recorded : first;
            host.flush(entry);
        }
        assertFalse(entry.getValue().hasSeenJob("j-0/r1"));
        assertEquals(Account.JOBS_KEPT, entry.getValue().jobs().size());
        assertNull(entry.getValue().recorded("a-1", "job/j-0/r1"), "the movement left the tail for the journal");
        long balance = entry.getValue().balance();

        JobStep redo = run(entry, "j-0", "r1", FEE_100, NOW + 1);

        assertEquals(JobStep.Kind.REPLAYED, redo.kind());
        assertEquals(first, redo.entry());
        assertEquals(balance, entry.getValue().balance());
    }

    @Test
    void shouldChargeAgainWhenAnotherRunOfTheSameJobIdComesAlong() {
        var entry = account(1_000, 0);
        run(entry, "j-1", FEE_100);
        host.flush(entry);

        // The first job finished and expired; a client starts a job under the same id.
        JobStep second = run(entry, "j-1", "r2", FEE_100, NOW + 1);

        assertEquals(JobStep.Kind.RECORDED, second.kind());
        assertEquals("job/j-1/r2", second.entry().txId());
        assertEquals(800, entry.getValue().balance());
        assertEquals(List.of("j-1/r1", "j-1/r2"), entry.getValue().jobs());
    }

    @Test
    void shouldNotTakeAnEntryThatIsNotTheJobsOwnForTheJobsMovement() {
        var entry = account(1_000, 0);
        // Written around the API: a client-type entry under the run's txId.
        JournalEntry foreign = new JournalEntry("a-1", JobRules.txId("j-1", "r1"), TxType.CREDIT, 5, TxStatus.APPLIED,
                1_005, NOW, 1, null);
        host.journal.put(foreign.key(), JournalRecord.of(foreign));

        JobStep step = run(entry, "j-1", FEE_100);

        assertEquals(JobStep.Kind.SKIPPED, step.kind());
        assertEquals(new JobTally(1, 0, 0, 1, 0, 0, List.of()), step.tally());
        assertEquals(1_000, entry.getValue().balance());
    }

    @Test
    void shouldKeepJobTxIdsOutOfTheClientsNamespace() {
        String txId = JobRules.txId("j:1", "r1");

        assertEquals("job/j:1/r1", txId);
        assertFalse(io.partita.web.Ids.valid(txId), "a client cannot send " + txId);
    }

    @Test
    void shouldPayInterestOfAtMostTheLargestAmountOneTransactionMoves() {
        Account rich = Account.open(3 * Ledger.MAX_AMOUNT, 0);

        TxRequest request = JobRules.request(new JobSpec(JobType.INTEREST, 0, 10_000, false), "j-1", "r1", rich, NOW);

        assertEquals(Ledger.MAX_AMOUNT, request.amount());
        assertEquals(3 * Ledger.MAX_AMOUNT, JobRules.interest(rich.balance(), 10_000));
    }

    @Test
    void shouldAnswerTrueToAClaimRetriedAfterItWasAlreadyGranted() {
        var entry = new AbstractMap.SimpleEntry<>("j-1", Job.start("j-1", "r1", FEE_100, null, NOW, "m-0"));

        assertTrue(new ClaimCoordination("m-0", "m-1").process(entry));
        assertTrue(new ClaimCoordination("m-0", "m-1").process(entry), "the claimant already coordinates it");
        assertEquals("m-1", entry.getValue().coordinator());
        assertFalse(new ClaimCoordination("m-0", "m-2").process(entry), "another member's claim still loses");
        assertEquals("m-1", entry.getValue().coordinator());
    }

    @Test
    void shouldIgnoreAPartitionReportedByAnotherRunOfTheSameJobId() {
        var entry = new AbstractMap.SimpleEntry<>("j-1", Job.start("j-1", "r2", FEE_100, null, NOW, "m-0"));
        JobTally tally = new JobTally(3, 3, 0, 0, 300, 0, List.of());

        new RecordPartition("r1", 17, tally, NOW, 1_000).process(entry);
        assertEquals(0, entry.getValue().partitionsDone(), "a task of the expired run r1 counts nothing");

        new RecordPartition("r2", 17, tally, NOW, 1_000).process(entry);
        assertEquals(1, entry.getValue().partitionsDone());
        assertEquals(tally, entry.getValue().tally());
    }

    @Test
    void shouldExplainABalanceFromTheOpeningBalanceAndTheJournal() {
        var entry = account(1_000, 0);
        List<JournalEntry> journal = new ArrayList<>();
        assertTrue(JobRules.balanced("a-1", entry.getValue(), journal));
        for (int i = 0; i < 20; i++) {
            TxType type = i % 3 == 0 ? TxType.CREDIT : TxType.DEBIT;
            Ledger.Decision decision = Ledger.decide("a-1", entry.getValue(), TxRequest.of("t-" + i, type, 97, NOW),
                    id -> null);
            entry.setValue(decision.apply(entry.getValue()).trimmedThrough(decision.recorded().seq()));
            journal.add(decision.recorded());
        }
        JournalEntry fee = run(entry, "j-1", FEE_100).entry();
        Account account = entry.getValue();

        // The fee is still in the account's tail, not yet in the journal: it counts from there.
        assertTrue(JobRules.balanced("a-1", account, journal));
        journal.add(fee);
        assertTrue(JobRules.balanced("a-1", account, journal));
        // Older entries expired: the oldest retained one gives the balance before it.
        assertTrue(JobRules.balanced("a-1", account, journal.subList(15, journal.size())));

        Account planted = new Account(account.balance() + 7, account.overdraftLimit(), account.version(),
                account.fence(), account.openingBalance(), account.tail(), account.jobs(), 0);
        assertFalse(JobRules.balanced("a-1", planted, journal));
        assertEquals(account.balance(), JobRules.explainedBalance("a-1", planted, journal));

        Account untouched = Account.open(500, 0);
        Account plantedUntouched = new Account(900, 0, 0, 0, 500, Tail.EMPTY, List.of(), 0);
        assertTrue(JobRules.balanced("a-2", untouched, List.of()));
        assertFalse(JobRules.balanced("a-2", plantedUntouched, List.of()));
    }

    @Test
    void shouldKeepTheFirstMismatchIdsInIdOrderWhateverThePartitionOrder() {
        JobTally a = JobTally.audited(3, List.of("m-5", "m-1", "m-9"), 1);
        JobTally b = JobTally.audited(20, List.of("m-0", "m-2", "m-3", "m-4", "m-6", "m-7", "m-8", "m-91", "m-92"), 2);

        assertEquals(a.plus(b), b.plus(a));
        assertEquals(12, a.plus(b).mismatches());
        assertEquals(3, a.plus(b).mergeConflicts());
        assertEquals(23, a.plus(b).accounts());
        assertEquals(List.of("m-0", "m-1", "m-2", "m-3", "m-4", "m-5", "m-6", "m-7", "m-8", "m-9"),
                a.plus(b).mismatchIds());
    }

    @Test
    void shouldNameEachFiringsJobAfterTheScheduleAndTheSecondWithinSixtyFourCharacters() {
        assertEquals("nightly:1700000000", Schedule.firingJobId("nightly", NOW));
        String longName = "n".repeat(64);
        String id = Schedule.firingJobId(longName, NOW);
        assertEquals(64, id.length());
        assertTrue(id.endsWith(":1700000000"), id);
        assertTrue(id.matches(io.partita.web.Ids.PATTERN), id);
        assertNotEquals(id, Schedule.firingJobId("n".repeat(63) + "m", NOW));
    }
}
