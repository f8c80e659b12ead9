package io.partita.load;

import io.partita.client.IdReusedException;
import io.partita.client.NotFoundException;
import io.partita.client.PartitaException;
import io.partita.client.PartitionLostException;
import io.partita.client.TransferResult;
import io.partita.client.TxResult;
import io.partita.load.LoadRecord.Answer;
import io.partita.load.LoadRecord.Entry;
import io.partita.load.LoadRecord.Observed;
import io.partita.load.LoadRecord.Op;
import io.partita.load.LoadRecord.Opening;
import io.partita.load.LoadRecord.Outcome;
import io.partita.load.LoadRecord.Replay;
import io.partita.load.LoadRecord.Result;
import io.partita.load.LoadRecord.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load tool's check fed by hand: a consistent record passes, and each planted fault (a lost acknowledged credit,
 * a double apply, a replay that answered differently or without its Idempotent-Replayed header, an applied rejection,
 * a half-done transfer, a stale write, a 404 or 409 the API does not allow) fails it.
 */
class VerificationTest {

    private static final String PROBLEMS = "https://partita.dev/problems/";

    /*
     * The consistent story: a and b open at 1000 (b may go to -500).
     * c1: credit 100 to a -> 1100. d1: debit 5000 from a -> 422 (a stays 1100).
     * t1: transfer 300 a -> b: a 800, b 1300.
     * u1: debit 50 from b without an answer, applied -> b 1250. u2: credit 7 to b without an answer, never applied.
     */
    private final Map<String, Opening> opening = Map.of("a", new Opening(1000, 0), "b", new Opening(1000, 500));
    private final Op c1 = Op.credit("c1", "a", 100);
    private final Op d1 = Op.debit("d1", "a", 5000);
    private final Op t1 = Op.transfer("t1", "a", "b", 300);
    private final Op u1 = Op.debit("u1", "b", 50);
    private final Op u2 = Op.credit("u2", "b", 7);

    private List<Result> results() {
        return new ArrayList<>(List.of(
                new Result(c1, new Answer(Outcome.APPLIED, 200, 1100L, null)),
                new Result(d1, new Answer(Outcome.REJECTED, 422, 1100L, null)),
                new Result(t1, new Answer(Outcome.APPLIED, 200, 800L, 1300L)),
                new Result(u1, Answer.UNKNOWN),
                new Result(u2, Answer.UNKNOWN)));
    }

    private Map<String, List<Entry>> journals() {
        Map<String, List<Entry>> journals = new HashMap<>();
        journals.put("a", new ArrayList<>(List.of(
                new Entry("transfer-out/t1", "TRANSFER_OUT", 300, "APPLIED", 800),
                new Entry("d1", "DEBIT", 5000, "REJECTED", 1100),
                new Entry("c1", "CREDIT", 100, "APPLIED", 1100))));
        journals.put("b", new ArrayList<>(List.of(
                new Entry("u1", "DEBIT", 50, "APPLIED", 1250),
                new Entry("transfer-in/a/t1", "TRANSFER_IN", 300, "APPLIED", 1300))));
        return journals;
    }

    private Map<String, Long> balances() {
        return new HashMap<>(Map.of("a", 800L, "b", 1250L));
    }

    /** The answer a correct node gives to a replay: the first answer, with Idempotent-Replayed: true. */
    private static Answer replayed(Answer first) {
        return new Answer(first.outcome(), first.httpStatus(), first.balance(), first.toBalance(), true, null);
    }

    private static Verification.Verdict verify(Run run, Map<String, Long> balances,
                                               Map<String, List<Entry>> journals) {
        return Verification.verify(run, new Observed(balances, journals, List.of()));
    }

    @Test
    void shouldPassWhenTheClusterHoldsExactlyWhatItAcknowledged() {
        Run run = new Run(opening, results(), List.of(new Replay(c1, results().get(0).answer(),
                replayed(results().get(0).answer()))));

        Verification.Verdict verdict = verify(run, balances(), journals());

        assertTrue(verdict.pass(), () -> verdict.failures().toString());
        assertEquals(1, verdict.unknownApplied());
        assertEquals(2050, verdict.observedTotal());
    }

    @Test
    void shouldFailWhenAnAcknowledgedCreditIsMissingFromTheBalanceAndTheJournal() {
        Map<String, List<Entry>> journals = journals();
        journals.get("a").removeIf(e -> e.txId().equals("c1"));
        Map<String, Long> balances = balances();
        balances.put("a", 700L);

        Verification.Verdict verdict = verify(new Run(opening, results(), List.of()), balances, journals);

        assertFails(verdict, f -> f.contains("c1") && f.contains("acknowledged APPLIED"));
        assertTrue(verdict.failures().stream().anyMatch(f -> f.contains("not conserved")));
    }

    @Test
    void shouldFailWhenAJournalLineDisagreesWithTheOpeningAndTheLinesBeforeIt() {
        Map<String, List<Entry>> journals = journals();
        journals.get("b").set(0, new Entry("u1", "DEBIT", 50, "APPLIED", 1240));

        Verification.Verdict verdict = verify(new Run(opening, results(), List.of()), balances(), journals);

        assertFails(verdict, f -> f.contains("u1 left 1240") && f.contains("1250"));
    }

    /** After a network split: a line the merge brought from the other side keeps the answer its client got there. */
    @Test
    void shouldPassWhenAMergedLineKeepsTheAnswerItsClientGotOnTheOtherSide() {
        Op m1 = Op.credit("m1", "b", 5);
        List<Result> results = results();
        results.add(new Result(m1, new Answer(Outcome.APPLIED, 200, 1005L, null)));
        Map<String, List<Entry>> journals = journals();
        journals.get("b").add(0, new Entry("m1", "CREDIT", 5, "APPLIED", 1005, true));
        Map<String, Long> balances = balances();
        balances.put("b", 1255L);

        Verification.Verdict verdict = verify(new Run(opening, results, List.of()), balances, journals);

        assertTrue(verdict.pass(), () -> verdict.failures().toString());
        journals.get("b").set(0, new Entry("m1", "CREDIT", 5, "APPLIED", 1005, false));
        assertFalse(verify(new Run(opening, results, List.of()), balances, journals).pass(),
                "the same line, not marked merged, breaks the account's chain");
    }

    @Test
    void shouldAllowABalanceBelowItsLimitOnlyWhereTheAccountReportsAMergeConflict() {
        Op x1 = Op.debit("x1", "b", 1850);
        List<Result> results = results();
        results.add(new Result(x1, new Answer(Outcome.APPLIED, 200, -400L, null)));
        Map<String, List<Entry>> journals = journals();
        journals.get("b").add(0, new Entry("x1", "DEBIT", 1850, "APPLIED", -400, true));
        Map<String, Long> balances = balances();
        balances.put("b", -600L);
        Run run = new Run(opening, results, List.of());

        Verification.Verdict unreported = Verification.verify(run, new Observed(balances, journals, List.of()));
        Verification.Verdict reported = Verification.verify(run, new Observed(balances, journals, List.of(),
                Set.of("b")));

        assertFalse(unreported.pass());
        assertTrue(unreported.failures().stream().anyMatch(f -> f.contains("reports no merge conflict")),
                () -> unreported.failures().toString());
        assertTrue(reported.pass(), () -> reported.failures().toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a transaction applied twice    | a | c1    | 100 | 900  | more than once",
            "an id the run never sent       | b | stale | 1   | 1251 | never sent"})
    void shouldFailWhenAJournalHoldsACreditTheRunDoesNotExplain(String journalHolds, String account, String txId,
            long amount, long balanceAfter, String failure) {
        Entry credit = new Entry(txId, "CREDIT", amount, "APPLIED", balanceAfter);

        Verification.Verdict verdict = verifyWithLineAdded(results(), account, credit);

        assertFails(verdict, f -> f.contains(failure));
    }

    @Test
    void shouldFailWhenAReplayAnsweredDifferentlyFromTheFirstCall() {
        Replay replay = new Replay(c1, new Answer(Outcome.APPLIED, 200, 1100L, null),
                new Answer(Outcome.APPLIED, 200, 1200L, null));

        Verification.Verdict verdict = verify(new Run(opening, results(), List.of(replay)), balances(), journals());

        assertFails(verdict, f -> f.startsWith("replay of c1"));
    }

    /**
     * Split-brain protection off: c1 was decided on one side (balance 1150 there), retried on the other and decided
     * again (1100, no replay header), and the merge kept the second. Judged strictly that is two failures; with both
     * sides deciding it passes, and the same record with c1 gone from the journal still fails as lost.
     */
    @Test
    void shouldJudgeARetryDecidedOnBothSidesOnlyByWhatTheMergeKeptWhenBothSidesDecide() {
        List<Result> results = results();
        results.set(0, new Result(c1, new Answer(Outcome.APPLIED, 200, 1150L, null)));
        Run run = new Run(opening, results, List.of(new Replay(c1, results.get(0).answer(),
                new Answer(Outcome.APPLIED, 200, 1100L, null))));

        Verification.Verdict strict = verify(run, balances(), journals());
        Verification.Verdict bothSides = Verification.verify(run, new Observed(balances(), journals(), List.of()),
                true);

        assertEquals(2, strict.failureCount(), () -> strict.failures().toString());
        assertTrue(bothSides.pass(), () -> bothSides.failures().toString());
        assertEquals(1, bothSides.decidedTwice());
        Map<String, List<Entry>> journals = journals();
        journals.get("a").removeIf(e -> e.txId().equals("c1"));
        Map<String, Long> balances = balances();
        balances.put("a", 700L);
        assertFails(Verification.verify(run, new Observed(balances, journals, List.of()), true),
                f -> f.contains("c1") && f.contains("acknowledged APPLIED"));
    }

    @Test
    void shouldFailWhenADefiniteRejectionWasApplied() {
        Map<String, List<Entry>> journals = journals();
        journals.get("a").replaceAll(e -> e.txId().equals("d1")
                ? new Entry("d1", "DEBIT", 5000, "APPLIED", -3900) : e);

        Verification.Verdict verdict = verify(new Run(opening, results(), List.of()), balances(), journals);

        assertFails(verdict, f -> f.contains("d1") && f.contains("422"));
    }

    @Test
    void shouldFailWhenATransferIsLeftHalfDone() {
        Op t2 = Op.transfer("t2", "b", "a", 10);
        List<Result> results = results();
        results.add(new Result(t2, Answer.UNKNOWN));
        Entry debitOnly = new Entry("transfer-out/t2", "TRANSFER_OUT", 10, "APPLIED", 1240);

        Verification.Verdict verdict = verifyWithLineAdded(results, "b", debitOnly);

        assertFails(verdict, f -> f.contains("half done"));
    }

    @Test
    void shouldFailWhenABalanceIsBelowItsOverdraftLimit() {
        Map<String, Opening> tight = Map.of("a", new Opening(1000, 0), "b", new Opening(1000, 0));
        Op big = Op.debit("big", "b", 2000);
        List<Result> results = List.of(new Result(big, new Answer(Outcome.APPLIED, 200, -1000L, null)));
        Map<String, List<Entry>> journals = Map.of("a", List.of(),
                "b", List.of(new Entry("big", "DEBIT", 2000, "APPLIED", -1000)));

        Verification.Verdict verdict = verify(new Run(tight, results, List.of()),
                Map.of("a", 1000L, "b", -1000L), journals);

        assertFails(verdict, f -> f.contains("overdraft"));
    }

    @Test
    void shouldFailWhenAReplayRepeatsTheFirstAnswerWithoutTheReplayedHeader() {
        Answer first = results().get(0).answer();
        Replay withHeader = new Replay(c1, first, replayed(first));
        Replay withoutHeader = new Replay(c1, first, new Answer(Outcome.APPLIED, 200, 1100L, null, false, null));

        Verification.Verdict good = verify(new Run(opening, results(), List.of(withHeader)), balances(), journals());
        Verification.Verdict bad = verify(new Run(opening, results(), List.of(withoutHeader)), balances(), journals());

        assertTrue(good.pass(), () -> good.failures().toString());
        assertFalse(bad.pass());
        assertEquals(1, bad.failureCount(), () -> bad.failures().toString());
        assertTrue(bad.failures().get(0).contains("Idempotent-Replayed"), () -> bad.failures().toString());
    }

    @Test
    void shouldFailWhenAnAccountThisRunOpenedIsAnswered404EvenIfNothingElseIsWrong() {
        Op lost = Op.debit("n1", "a", 10);
        List<Result> results = results();
        results.add(new Result(lost, Workload.answer(new NotFoundException(404, PROBLEMS + "not-found",
                "Account not found", "Account 'a' was not found."))));

        Verification.Verdict verdict = verify(new Run(opening, results, List.of()), balances(), journals());

        assertFalse(verdict.pass());
        assertEquals(1, verdict.unexpected());
        assertEquals(1, verdict.failureCount(), () -> verdict.failures().toString());
        assertTrue(verdict.failures().get(0).contains("n1") && verdict.failures().get(0).contains("404"),
                () -> verdict.failures().toString());
    }

    @Test
    void shouldFailWhenAnIdOnlyThisRunUsesIsAnswered409AndStillCountWhatTheJournalShows() {
        // The 409 came, yet the journal shows the credit applied: the balance must include it, so the only failure
        // is the answer itself (no spurious balance or conservation failure hides it or adds to it).
        Op clash = Op.credit("k1", "b", 5);
        List<Result> results = results();
        results.add(new Result(clash, Workload.answer(new IdReusedException(409, PROBLEMS + "txid-reused",
                "Transaction id reused", null))));
        Map<String, List<Entry>> journals = journals();
        journals.get("b").add(0, new Entry("k1", "CREDIT", 5, "APPLIED", 1255));
        Map<String, Long> balances = balances();
        balances.put("b", 1255L);

        Verification.Verdict verdict = verify(new Run(opening, results, List.of()), balances, journals);

        assertFalse(verdict.pass());
        assertEquals(1, verdict.failureCount(), () -> verdict.failures().toString());
        assertTrue(verdict.failures().get(0).contains("k1") && verdict.failures().get(0).contains("409"),
                () -> verdict.failures().toString());
    }

    @Test
    void shouldFailWhenATransferIsAnswered404() {
        Op t3 = Op.transfer("t3", "a", "b", 1);
        List<Result> results = results();
        results.add(new Result(t3, Workload.answer(new PartitaException(404, null, null, null))));

        Verification.Verdict verdict = verify(new Run(opening, results, List.of()), balances(), journals());

        assertFails(verdict, f -> f.contains("t3") && f.contains("404"));
    }

    @Test
    void shouldReadAnAnswerTheWayTheApiDefinesIt() {
        Op debit = Op.debit("r1", "a", 10);
        Op transfer = Op.transfer("r2", "a", "b", 10);

        Answer applied = Workload.answer(new TxResult(debit.txId(), "a", true, 90, true, null, 1));
        Answer rejected = Workload.answer(new TransferResult(transfer.txId(), "a", "b", 10, false, 5L, 7L, false,
                "INSUFFICIENT_FUNDS"));
        Answer lost = Workload.answer(new PartitionLostException(503, PROBLEMS + "partition-lost", "Partition lost",
                null));
        Answer failed = Workload.answer(new PartitaException(500, null, "Internal Server Error", null));
        Answer refused = Workload.answer(new PartitaException(400, PROBLEMS + "invalid-field", "Invalid field",
                "amount"));

        assertEquals(new Answer(Outcome.APPLIED, 200, 90L, null, true, null), applied);
        assertEquals(new Answer(Outcome.REJECTED, 422, 5L, 7L, false, null), rejected);
        assertEquals(Outcome.UNKNOWN, lost.outcome(), "the journal decides what a lost partition did");
        assertEquals(Outcome.UNKNOWN, failed.outcome());
        assertEquals(new Answer(Outcome.UNEXPECTED, 400, null, null, false, refused.detail()), refused);
        assertThrows(IllegalStateException.class, () -> Workload.answer(new IllegalStateException("a bug")),
                "an error in the tool is not an answer");
    }

    /** The run failed, and one of its failures is {@code expected}. */
    private static void assertFails(Verification.Verdict verdict, Predicate<String> expected) {
        assertFalse(verdict.pass());
        assertTrue(verdict.failures().stream().anyMatch(expected), () -> verdict.failures().toString());
    }

    /** The run's {@code results} checked with {@code line} atop {@code account}'s journal and its balance to match. */
    private Verification.Verdict verifyWithLineAdded(List<Result> results, String account, Entry line) {
        Map<String, List<Entry>> journals = journals();
        journals.get(account).add(0, line);
        Map<String, Long> balances = balances();
        balances.put(account, line.balanceAfter());
        return verify(new Run(opening, results, List.of()), balances, journals);
    }
}
