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
 * Java serialization refused: each comes back written as the same bytes, so its reading and its writing agree.
 */
class AccountSerializationTest {

    private final JournalEntry entry = new JournalEntry("a-1", "t-1", TxType.DEBIT, 100, TxStatus.APPLIED, 900,
            1_700_000_000_000L, 3, "ref-1");

    @Test
    void shouldWriteEveryProcessorAndPredicateAsTheSameBytesAfterARoundTrip() {
        Map<String, Long> through = new LinkedHashMap<>();
        through.put("a-1", 3L);
        through.put("a-2", 9L);
        for (Object value : List.of(
                TestAccess.applyTransactions(Map.of("a-1", List.of(new TxRequest("t-1", TxType.CREDIT, 5, 42, "r"),
                        new TxRequest("t-2", TxType.DEBIT, 2, 43, null)))),
                new OpenAccount(Account.open(1_000, 50)),
                new AccountBackup(Map.of("a-1", AccountDelta.NONE)),
                new TrimTails(through, 10, 20), new TrimTails(null, 10, 20),
                new ExpiredBefore(1_700_000_000_000L), new StaleTail(1_700_000_000_000L),
                new JournalPredicates.OfAccounts(Set.of("a-1")),
                new TxOutcomes(List.of(TxOutcome.recorded(entry), TxOutcome.notFound())))) {
            WireSerialization.roundTrip(value);
        }
    }

    @Test
    void shouldBringBackTheOutcomesOfABatchInOrder() {
        TxOutcomes outcomes = new TxOutcomes(List.of(TxOutcome.recorded(entry), TxOutcome.conflict(entry),
                TxOutcome.partitionLost()));
        assertEquals(List.of(TxOutcome.recorded(entry), TxOutcome.conflict(entry), TxOutcome.partitionLost()),
                WireSerialization.roundTrip(outcomes).list());
    }
}
