package io.partita.account;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.SerializerConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.node.CompactCodec;
import io.partita.node.Feature;
import io.partita.node.PartitaProperties;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The account feature's part of a member: the accounts and journal maps (kept as objects, merged transaction by
 * transaction), explicit Compact serializers for their values (SQL reads their fields by these names), the journal
 * key's own serializer, the classes of its block of ids, and the journal writer that runs beside each member.
 */
@Singleton
public final class AccountFeature implements Feature {

    public static final String ACCOUNTS = "accounts";
    public static final String JOURNAL = "journal";
    public static final String ACCOUNT_TYPE = "partita.Account";
    public static final String JOURNAL_RECORD_TYPE = "partita.JournalRecord";
    /** The shortest window the journal map keeps with the journal on disk, whatever the setting says. */
    static final Duration MIN_MEMORY_RETENTION = Duration.ofSeconds(1);

    public static IMap<String, Account> accounts(HazelcastInstance hazelcast) {
        return hazelcast.getMap(ACCOUNTS);
    }

    public static IMap<JournalKey, JournalRecord> journal(HazelcastInstance hazelcast) {
        return hazelcast.getMap(JOURNAL);
    }

    @Override
    public List<Supplier<? extends IdentifiedDataSerializable>> classes() {
        return List.of(ApplyTransactions::new, AccountBackup::new, TxOutcome::new, OpenAccount::new, TxOutcomes::new,
                TrimTails::new, JournalPredicates.OfAccounts::new, ExpiredBefore::new, StaleTail::new,
                AccountMergePolicy::new, JournalMergePolicy::new, MergeConflicts::new, RecoverAccounts::new);
    }

    @Override
    public void configure(Config config, Setup setup) {
        /*
         * A member that was paused (or cut off) past the heartbeat timeout is removed; when it runs again it forms a
         * cluster of its own until the split-brain merge brings it back, holding stale copies of some partitions and
         * none of the others. With split-brain protection on, it refuses every read and write of the ledger then
         * (SplitBrainProtectionException, a 503), so it neither answers stale balances nor takes writes that the
         * merge would drop. The merge joins both sides' accounts transaction by transaction (AccountMergePolicy),
         * takes the smaller side's journal only where this side lost the partition (JournalMergePolicy), and keeps
         * this side's sentinels (PartitionSentinels restores the rest once the merge is done).
         *
         * Accounts and journal entries are kept as objects: a transaction's entry processor then neither decodes nor
         * encodes the account (it replaces an immutable value), and a journal entry costs about 56 bytes of value
         * instead of about 88 serialized. Neither map has an index (an entry processor would then get a copy) nor a
         * time to live (the journal writer deletes expired entries; an expiry record per entry cost about 70 bytes).
         */
        config.addMapConfig(setup.protectedMap(ACCOUNTS, AccountMergePolicy.class)
                .setInMemoryFormat(InMemoryFormat.OBJECT));
        config.addMapConfig(setup.protectedMap(JOURNAL, JournalMergePolicy.class)
                .setInMemoryFormat(InMemoryFormat.OBJECT));
        PartitaProperties properties = setup.properties();
        PartitaProperties.Journal journal = properties.journal();
        // A member cut off by a network split notices after the heartbeat timeout; tails hold twice that, so that what
        // it recorded meanwhile is still in its accounts when the two sides merge.
        Duration hold = properties.heartbeatTimeout().multipliedBy(2);
        // With the journal on disk the map keeps its last seconds, for SQL: the disks answer for the rest of the
        // retention, the tails' trimming asks them, and a merge puts back from them what tails shed (TailRestore). So
        // the heap the map takes grows with the rate times this window only, never with the retention.
        boolean onDisk = properties.durability() != null && properties.durability().onDisk();
        long window = Math.max(MIN_MEMORY_RETENTION.toMillis(), Math.min(journal.memoryRetention().toMillis(),
                journal.retention().toMillis()));
        Duration inMemory = onDisk ? Duration.ofMillis(window) : journal.retention();
        new JournalSettings(journal.retention(), inMemory, journal.flushBatch(), journal.flushDelay(),
                journal.sweepInterval(), hold, onDisk).putInto(config);
        config.getSerializationConfig().getCompactSerializationConfig()
                .addSerializer(ACCOUNT_CODEC)
                .addSerializer(JOURNAL_RECORD_CODEC);
        config.getSerializationConfig().addSerializerConfig(new SerializerConfig()
                .setTypeClass(JournalKey.class)
                .setImplementation(new JournalKey.Serializer()));
    }

    /** The journal writer of the member: it moves entries from the accounts' tails to the journal. */
    @Override
    public void start(HazelcastInstance member) {
        MemberLedger.start(member);
    }

    /** An account, its tail as one byte array ({@link Tail}); its id is the map's key. */
    static final CompactCodec<Account> ACCOUNT_CODEC = CompactCodec.of(ACCOUNT_TYPE,
            Account.class, AccountFeature::readAccount, AccountFeature::writeAccount, Account.open(0, 0));

    private static Account readAccount(CompactReader reader) {
        String[] jobs = reader.readArrayOfString("jobs");
        return new Account(reader.readInt64("balance"), reader.readInt64("overdraftLimit"),
                reader.readInt64("version"), reader.readInt64("fence"), reader.readInt64("openingBalance"),
                reader.readArrayOfInt8("tail"), jobs == null ? List.of() : Arrays.asList(jobs),
                reader.readInt32("conflicts"));
    }

    private static void writeAccount(CompactWriter writer, Account account) {
        writer.writeInt64("balance", account.balance());
        writer.writeInt64("overdraftLimit", account.overdraftLimit());
        writer.writeInt64("version", account.version());
        writer.writeInt64("fence", account.fence());
        writer.writeInt64("openingBalance", account.openingBalance());
        writer.writeInt32("conflicts", account.conflicts());
        writer.writeArrayOfInt8("tail", account.tail());
        writer.writeArrayOfString("jobs", account.jobs().isEmpty() ? null : account.jobs().toArray(new String[0]));
    }

    /** A journal entry's value: flat, type and status in one byte, no id repeated from the key. */
    static final CompactCodec<JournalRecord> JOURNAL_RECORD_CODEC = CompactCodec.of(JOURNAL_RECORD_TYPE,
            JournalRecord.class, AccountFeature::readJournalRecord, AccountFeature::writeJournalRecord,
            new JournalRecord((byte) 0, 0, 0, 0, 0, null));

    private static JournalRecord readJournalRecord(CompactReader reader) {
        return new JournalRecord(reader.readInt8("kind"), reader.readInt64("amount"),
                reader.readInt64("balanceAfter"), reader.readInt64("at"), reader.readInt64("seq"),
                reader.readString("ref"));
    }

    private static void writeJournalRecord(CompactWriter writer, JournalRecord record) {
        writer.writeInt8("kind", record.kind());
        writer.writeInt64("amount", record.amount());
        writer.writeInt64("balanceAfter", record.balanceAfter());
        writer.writeInt64("at", record.at());
        writer.writeInt64("seq", record.seq());
        writer.writeString("ref", record.ref());
    }
}
