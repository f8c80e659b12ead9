package io.partita.cluster;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.AccountSerialization;
import io.partita.locking.LockingSerialization;
import io.partita.transfer.TransferSerialization;

/**
 * The one registry of serialization ids. Values (accounts, journal entries) use Compact serialization so that SQL can
 * read their fields; entry processors, their results and tasks are IdentifiedDataSerializable under
 * {@link #FACTORY_ID}, with one block of type ids per feature so that features never collide. Nothing that crosses
 * the wire may fall back to Java serialization: {@code SerializationTest} round-trips every registered class with
 * Java serialization disabled.
 */
public final class Serialization {

    public static final int FACTORY_ID = 7_271;

    // account: 1..19
    public static final int APPLY_TRANSACTION = 1;
    public static final int REPLACE_ACCOUNT = 2;
    public static final int TRANSACTION_OUTCOME = 3;
    public static final int OPEN_ACCOUNT = 4;
    public static final int APPLY_BATCH = 5;
    // transfer: 20..39
    public static final int BEGIN_TRANSFER = 20;
    public static final int ADVANCE_TRANSFER = 21;
    public static final int REPLACE_TRANSFER = 22;
    // locking: 40..59
    public static final int FENCED_WRITE = 40;
    // job: 60..79, cluster and query: 80..99

    private Serialization() {
    }

    static void register(SerializationConfig config) {
        config.addDataSerializableFactory(FACTORY_ID, factory());
        AccountSerialization.compactSerializers().forEach(config.getCompactSerializationConfig()::addSerializer);
        TransferSerialization.compactSerializers().forEach(config.getCompactSerializationConfig()::addSerializer);
    }

    static DataSerializableFactory factory() {
        return Serialization::create;
    }

    private static IdentifiedDataSerializable create(int typeId) {
        IdentifiedDataSerializable created = AccountSerialization.create(typeId);
        if (created == null) {
            created = TransferSerialization.create(typeId);
        }
        if (created == null) {
            created = LockingSerialization.create(typeId);
        }
        if (created == null) {
            throw new IllegalArgumentException("Unknown serialization type id " + typeId);
        }
        return created;
    }
}
