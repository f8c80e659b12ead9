package io.partita.account;

import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The account feature's entry processors, predicates and answers through the node's own serialization config with
 * Java serialization refused: each, built with every field set, comes back with every field as it was (and written
 * as the same bytes again), so no field is lost between its writing and its reading.
 */
class AccountSerializationTest {

    private final JournalEntry entry = new JournalEntry("a-1", "t-1", TxType.DEBIT, 100, TxStatus.APPLIED, 900,
            1_700_000_000_000L, 3, "ref-1", true);
    private final Account account = new Account(900, 50, 3, 7, 1_000, Tail.encode(entry), List.of("job-1/r"), 1);

    @Test
    void shouldBringBackEveryFieldOfEveryProcessorPredicateAndAnswer() {
        Map<String, Long> through = new LinkedHashMap<>();
        through.put("a-1", 3L);
        through.put("a-2", 9L);
        for (Object value : List.of(
                TestAccess.applyTransactions(Map.of("a-1", List.of(new TxRequest("t-1", TxType.CREDIT, 5, 42, "r"),
                        new TxRequest("t-2", TxType.DEBIT, 2, 43, "r2")), "a-2", List.of(
                        new TxRequest("t-3", TxType.FEE, 1, 44, "r3")))),
                new OpenAccount(account),
                new AccountBackup(Map.of("a-1",
                        new AccountDelta(account, Tail.encode(entry), 800, 4, 2, 8, "job-2/r"))),
                new RecoverAccounts(Map.of("a-1", account, "a-2", account.withFence(9))),
                new TrimTails(through, 10, 20),
                new ExpiredBefore(1_700_000_000_000L), new StaleTail(1_700_000_000_000L),
                new JournalPredicates.OfAccounts(Set.of("a-1")),
                new TxOutcomes(List.of(TxOutcome.recorded(entry), TxOutcome.replayed(entry))))) {
            WireSerialization.roundTripEveryField(value);
        }
    }

    @Test
    void shouldBringBackTheProcessorsWhoseFieldsMayBeAbsent() {
        // A trim of every account (no list), and backups of an append, a fence, a trim, and nothing: what is absent
        // stays so, and what is present comes back.
        WireSerialization.roundTrip(new TrimTails(null, 10, 20));
        WireSerialization.roundTrip(new AccountBackup(Map.of(
                "a-1", AccountDelta.appended(Account.open(10, 0), account), "a-2", AccountDelta.NONE.withFence(4),
                "a-3", AccountDelta.trimmedThrough(2), "a-4", AccountDelta.NONE)));
    }

    @Test
    void shouldBringBackTheOutcomesOfABatchInOrder() {
        TxOutcomes outcomes = new TxOutcomes(List.of(TxOutcome.recorded(entry), TxOutcome.conflict(entry),
                TxOutcome.partitionLost(), TxOutcome.notFound()));
        assertEquals(List.of(TxOutcome.recorded(entry), TxOutcome.conflict(entry), TxOutcome.partitionLost(),
                TxOutcome.notFound()), WireSerialization.roundTrip(outcomes).list());
    }
}
