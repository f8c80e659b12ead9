package io.partita.cluster;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.nio.serialization.DataSerializableFactory;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.partita.account.AccountSerialization;
import io.partita.job.JobSerialization;
import io.partita.lease.LeaseSerialization;
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
    public static final int APPLY_TRANSACTIONS = 1;
    public static final int ACCOUNT_BACKUP = 2;
    public static final int TRANSACTION_OUTCOME = 3;
    public static final int OPEN_ACCOUNT = 4;
    public static final int TX_OUTCOMES = 5;
    public static final int TRIM_TAILS = 6;
    public static final int JOURNAL_OF_ACCOUNTS = 7;
    public static final int EXPIRED_BEFORE = 8;
    public static final int STALE_TAIL = 9;
    public static final int ACCOUNT_MERGE = 10;
    public static final int JOURNAL_MERGE = 11;
    public static final int MERGE_CONFLICTS = 12;
    // transfer: 20..39
    public static final int BEGIN_TRANSFER = 20;
    public static final int ADVANCE_TRANSFER = 21;
    public static final int REPLACE_TRANSFER = 22;
    public static final int TRANSFER_MERGE = 23;
    // locking: 40..59
    public static final int FENCED_WRITE = 40;
    // job: 60..79
    public static final int JOB_PARTITION_TASK = 60;
    public static final int APPLY_JOB = 61;
    public static final int JOB_STEP = 62;
    public static final int RECORD_PARTITION = 63;
    public static final int CLAIM_COORDINATION = 64;
    public static final int FAIL_JOB = 65;
    public static final int REPLACE_VALUE = 66;
    public static final int RECORD_FIRING = 67;
    public static final int JOB_MERGE = 68;
    public static final int SCHEDULE_MERGE = 69;
    // cluster and query: 80..99
    public static final int MEMBER_SNAPSHOT_TASK = 80;
    public static final int MEMBER_SNAPSHOT = 81;
    public static final int BACKED_UP_ENTRIES = 82;

    public static final int LEASE_GROUP = 100;
    public static final int LEASE_CALL = 101;
    public static final int LEASE_ANSWER = 102;
    public static final int FENCE_CHECK = 103;

    private Serialization() {
    }

    static void register(SerializationConfig config) {
        config.addDataSerializableFactory(FACTORY_ID, factory());
        AccountSerialization.register(config);
        TransferSerialization.compactSerializers().forEach(config.getCompactSerializationConfig()::addSerializer);
        JobSerialization.compactSerializers().forEach(config.getCompactSerializationConfig()::addSerializer);
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
            created = JobSerialization.create(typeId);
        }
        if (created == null) {
            created = ClusterSerialization.create(typeId);
        }
        if (created == null) {
            created = LeaseSerialization.create(typeId);
        }
        if (created == null) {
            throw new IllegalArgumentException("Unknown serialization type id " + typeId);
        }
        return created;
    }
}
