package io.partita.account;

import com.hazelcast.config.SerializationConfig;
import com.hazelcast.config.SerializerConfig;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.cluster.Serialization;

import java.util.Arrays;
import java.util.List;

/**
 * How the account feature's classes cross the wire: explicit Compact serializers for the values (SQL reads their
 * fields by these names), the journal key's own serializer, and the IdentifiedDataSerializable constructors for
 * {@link Serialization}'s factory.
 */
public final class AccountSerialization {

    public static final String ACCOUNT_TYPE = "partita.Account";
    public static final String JOURNAL_RECORD_TYPE = "partita.JournalRecord";

    private AccountSerialization() {
    }

    public static IdentifiedDataSerializable create(int typeId) {
        return switch (typeId) {
            case Serialization.APPLY_TRANSACTIONS -> new ApplyTransactions();
            case Serialization.ACCOUNT_BACKUP -> new AccountBackup();
            case Serialization.TRANSACTION_OUTCOME -> new TxOutcome();
            case Serialization.OPEN_ACCOUNT -> new OpenAccount();
            case Serialization.TX_OUTCOMES -> new TxOutcomes();
            case Serialization.TRIM_TAILS -> new TrimTails();
            case Serialization.JOURNAL_OF_ACCOUNTS -> new JournalPredicates.OfAccounts();
            case Serialization.EXPIRED_BEFORE -> new ExpiredBefore();
            case Serialization.STALE_TAIL -> new StaleTail();
            case Serialization.ACCOUNT_MERGE -> new AccountMergePolicy();
            case Serialization.JOURNAL_MERGE -> new JournalMergePolicy();
            case Serialization.MERGE_CONFLICTS -> new MergeConflicts();
            default -> null;
        };
    }

    public static void register(SerializationConfig config) {
        config.getCompactSerializationConfig()
                .addSerializer(new AccountSerializer())
                .addSerializer(new JournalRecordSerializer());
        config.addSerializerConfig(new SerializerConfig()
                .setTypeClass(JournalKey.class)
                .setImplementation(new JournalKey.Serializer()));
    }

    /** An account, its tail as one byte array ({@link Tail}); its id is the map's key. */
    static final class AccountSerializer implements CompactSerializer<Account> {

        @Override
        public Account read(CompactReader reader) {
            String[] jobs = reader.readArrayOfString("jobs");
            return new Account(reader.readInt64("balance"), reader.readInt64("overdraftLimit"),
                    reader.readInt64("version"), reader.readInt64("fence"), reader.readInt64("openingBalance"),
                    reader.readArrayOfInt8("tail"), jobs == null ? List.of() : Arrays.asList(jobs),
                    reader.readInt32("conflicts"));
        }

        @Override
        public void write(CompactWriter writer, Account account) {
            writer.writeInt64("balance", account.balance());
            writer.writeInt64("overdraftLimit", account.overdraftLimit());
            writer.writeInt64("version", account.version());
            writer.writeInt64("fence", account.fence());
            writer.writeInt64("openingBalance", account.openingBalance());
            writer.writeInt32("conflicts", account.conflicts());
            writer.writeArrayOfInt8("tail", account.tail());
            writer.writeArrayOfString("jobs", account.jobs().isEmpty() ? null : account.jobs().toArray(new String[0]));
        }

        @Override
        public String getTypeName() {
            return ACCOUNT_TYPE;
        }

        @Override
        public Class<Account> getCompactClass() {
            return Account.class;
        }
    }

    /** A journal entry's value: flat, type and status in one byte, no id repeated from the key. */
    static final class JournalRecordSerializer implements CompactSerializer<JournalRecord> {

        @Override
        public JournalRecord read(CompactReader reader) {
            return new JournalRecord(reader.readInt8("kind"), reader.readInt64("amount"),
                    reader.readInt64("balanceAfter"), reader.readInt64("at"), reader.readInt64("seq"),
                    reader.readString("ref"));
        }

        @Override
        public void write(CompactWriter writer, JournalRecord record) {
            writer.writeInt8("kind", record.kind());
            writer.writeInt64("amount", record.amount());
            writer.writeInt64("balanceAfter", record.balanceAfter());
            writer.writeInt64("at", record.at());
            writer.writeInt64("seq", record.seq());
            writer.writeString("ref", record.ref());
        }

        @Override
        public String getTypeName() {
            return JOURNAL_RECORD_TYPE;
        }

        @Override
        public Class<JournalRecord> getCompactClass() {
            return JournalRecord.class;
        }
    }
}
