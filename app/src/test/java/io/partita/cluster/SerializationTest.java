package io.partita.cluster;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import io.partita.account.Account;
import io.partita.account.AccountSerialization;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.Tail;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every class that crosses the wire goes through the node's own serialization config with Java serialization
 * refused outright, and comes back equal: nothing on the hot path can fall back to it unnoticed.
 */
class SerializationTest {

    private final InternalSerializationService serialization = WireSerialization.withoutJava();

    private final JournalEntry entry = new JournalEntry("a-1", "t-1", TxType.DEBIT, 100, TxStatus.APPLIED, 900,
            1_700_000_000_000L, 3, "ref-1");

    private <T> T roundTrip(T value) {
        return WireSerialization.roundTrip(serialization, value);
    }

    @Test
    void shouldRoundTripTheValuesWithCompact() {
        Account account = new Account(900, 50, 3, 7, 1_000, Tail.encode(entry), List.of("job-1/r"), 1);
        assertEquals(account, roundTrip(account));
        JournalRecord record = JournalRecord.of(entry);
        assertEquals(record, roundTrip(record));
        JournalRecord withoutRef = JournalRecord.of(
                new JournalEntry("a-1", "t-2", TxType.CREDIT, 1, TxStatus.REJECTED, 0, 0, 1, null));
        assertEquals(withoutRef, roundTrip(withoutRef));
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(account).getType());
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(record).getType());
    }

    @Test
    void shouldWriteTheJournalKeyWithItsOwnSerializerInFewBytes() {
        JournalKey key = new JournalKey("acc-12345", "tx-1-12345");
        assertEquals(key, roundTrip(key));
        assertEquals(JournalKey.Serializer.TYPE_ID, serialization.toData(key).getType());
        assertEquals(8 + 2 + 9 + 10, serialization.toData(key).totalSize(), "header, two lengths, the ids");
    }

    @Test
    void shouldRoundTripTheOutcomesAsIdentifiedDataSerializable() {
        for (TxOutcome outcome : List.of(TxOutcome.recorded(entry), TxOutcome.replayed(entry),
                TxOutcome.conflict(entry), TxOutcome.notFound(), TxOutcome.partitionLost())) {
            assertEquals(outcome, roundTrip(outcome));
            assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE,
                    serialization.toData(outcome).getType());
        }
    }

    @Test
    void shouldSerializeTheEntryProcessorsWithoutJava() {
        Object processor = io.partita.account.TestAccess.applyTransaction("a-1",
                new TxRequest("t-1", TxType.CREDIT, 5, 42, "ref"));
        assertNotNull(roundTrip(processor));
        assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE,
                serialization.toData(processor).getType());
    }

    @Test
    void shouldCreateEveryRegisteredTypeIdOnlyOnce() {
        List<Integer> created = IntStream.range(0, 100)
                .filter(id -> AccountSerialization.create(id) != null)
                .boxed()
                .toList();
        created.forEach(id -> assertEquals(id, AccountSerialization.create(id).getClassId()));
        assertNotEquals(List.of(), created);
    }

    @Test
    void shouldRefuseJavaSerializationSoThatTheChecksAboveMeanSomething() {
        record Plain(int value) implements Serializable {
        }
        Data data = serialization.toData(new Plain(1));
        assertEquals(SerializationConstants.JAVA_DEFAULT_TYPE_SERIALIZABLE, data.getType());
        assertThrows(RuntimeException.class, () -> serialization.toObject(data));
    }
}
