package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.config.SerializationConfig;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.SerializationConstants;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.Tail;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.support.AllFeatures;
import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every class that crosses the wire goes through the node's own serialization config with Java serialization
 * refused outright, and comes back equal, every field of it (each set, in the values built here, to other than its
 * default): nothing on the hot path can fall back to it, or lose a field, unnoticed.
 */
class SerializationTest {

    private final InternalSerializationService serialization = WireSerialization.withoutJava();

    private final JournalEntry entry = new JournalEntry("a-1", "t-1", TxType.DEBIT, 100, TxStatus.APPLIED, 900,
            1_700_000_000_000L, 3, "ref-1", true);

    private <T> T roundTrip(T value) {
        return WireSerialization.roundTrip(serialization, value);
    }

    private <T> T roundTripEveryField(T value) {
        return WireSerialization.roundTripEveryField(serialization, value);
    }

    @Test
    void shouldRoundTripTheValuesWithCompact() {
        Account account = new Account(900, 50, 3, 7, 1_000, Tail.encode(entry), List.of("job-1/r"), 1);
        assertEquals(account, roundTripEveryField(account));
        JournalRecord record = JournalRecord.of(entry);
        assertEquals(record, roundTripEveryField(record));
        JournalRecord withoutRef = JournalRecord.of(
                new JournalEntry("a-1", "t-2", TxType.CREDIT, 1, TxStatus.REJECTED, 0, 0, 1, null));
        assertEquals(withoutRef, roundTrip(withoutRef));
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(account).getType());
        assertEquals(SerializationConstants.TYPE_COMPACT, serialization.toData(record).getType());
    }

    @Test
    void shouldWriteTheJournalKeyWithItsOwnSerializerInFewBytes() {
        JournalKey key = new JournalKey("acc-12345", "tx-1-12345");
        assertEquals(key, roundTripEveryField(key));
        assertEquals(JournalKey.Serializer.TYPE_ID, serialization.toData(key).getType());
        assertEquals(8 + 2 + 9 + 10, serialization.toData(key).totalSize(), "header, two lengths, the ids");
    }

    @Test
    void shouldRoundTripTheOutcomesAsIdentifiedDataSerializable() {
        for (TxOutcome outcome : List.of(TxOutcome.recorded(entry), TxOutcome.replayed(entry),
                TxOutcome.conflict(entry))) {
            assertEquals(outcome, roundTripEveryField(outcome));
        }
        // Every outcome, those without an entry too, comes back equal, as IdentifiedDataSerializable.
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
        assertNotNull(roundTripEveryField(processor));
        assertEquals(SerializationConstants.CONSTANT_TYPE_DATA_SERIALIZABLE,
                serialization.toData(processor).getType());
    }

    @Test
    void shouldGiveEachFeatureItsOwnIdsEachCreatingTheClassThatAnswersToIt() {
        Map<String, Set<Integer>> expected = Map.of(
                "AccountFeature", ids(1, 13),
                "TransferFeature", ids(20, 23),
                "LockingFeature", Set.of(40),
                "JobFeature", Set.of(60, 61, 62, 63, 64, 65, 66, 68, 70, 71),
                "ScheduleFeature", Set.of(67, 69, 72),
                "ObserveFeature", Set.of(80, 81),
                "LeaseFeature", ids(100, 104));
        Set<Integer> seen = new HashSet<>(Set.of(Serialization.BACKED_UP_ENTRIES,
                new ReplaceValue<>().getClassId(), new RemoveValue<>().getClassId()));
        for (Feature feature : AllFeatures.LIST) {
            String name = feature.getClass().getSimpleName();
            Set<Integer> ids = new HashSet<>();
            for (Supplier<? extends IdentifiedDataSerializable> constructor : feature.classes()) {
                IdentifiedDataSerializable created = constructor.get();
                String type = created.getClass().getSimpleName();
                assertEquals(Serialization.FACTORY_ID, created.getFactoryId(), type);
                assertTrue(ids.add(created.getClassId()), type + "'s id " + created.getClassId() + " is claimed once");
                assertTrue(seen.add(created.getClassId()), type + "'s id is claimed by no other feature");
            }
            assertEquals(expected.get(name), ids, name);
        }
    }

    @Test
    void shouldRefuseToStartWhenAClassHasNoClassId() {
        class Unnamed implements Stateless {
        }
        Feature unnamed = new Feature() {
            @Override
            public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
                return List.of(Unnamed::new);
            }

            @Override
            public void configure(Config config, Setup setup) {
            }
        };
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> Serialization.register(new SerializationConfig(), List.of(unnamed)));
        assertTrue(refused.getMessage().contains("without a @ClassId"), refused.getMessage());
    }

    @Test
    void shouldRefuseToStartWhenTwoFeaturesClaimOneId() {
        List<Feature> twice = List.of(new AccountFeature(), new AccountFeature());
        assertThrows(IllegalStateException.class,
                () -> Serialization.register(new SerializationConfig(), twice));
    }

    private static Set<Integer> ids(int first, int last) {
        return IntStream.rangeClosed(first, last).boxed().collect(Collectors.toSet());
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
