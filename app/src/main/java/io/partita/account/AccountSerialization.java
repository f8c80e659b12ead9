package io.partita.account;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.partita.cluster.Serialization;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How the account feature's classes cross the wire: explicit Compact serializers for the values (SQL reads their
 * fields by these names) and the IdentifiedDataSerializable constructors for {@link Serialization}'s factory.
 */
public final class AccountSerialization {

    public static final String ACCOUNT_TYPE = "partita.Account";
    public static final String JOURNAL_ENTRY_TYPE = "partita.JournalEntry";
    public static final String JOURNAL_KEY_TYPE = "partita.JournalKey";

    private AccountSerialization() {
    }

    public static IdentifiedDataSerializable create(int typeId) {
        return switch (typeId) {
            case Serialization.APPLY_TRANSACTION -> new ApplyTransaction();
            case Serialization.REPLACE_ACCOUNT -> new ReplaceAccount<>();
            case Serialization.TRANSACTION_OUTCOME -> new TxOutcome();
            case Serialization.OPEN_ACCOUNT -> new OpenAccount();
            case Serialization.APPLY_BATCH -> new ApplyBatch();
            default -> null;
        };
    }

    public static List<CompactSerializer<?>> compactSerializers() {
        return List.of(new AccountSerializer(), new JournalEntrySerializer(), new JournalKeySerializer());
    }

    /**
     * An account, with its recent entries as columns (one array per field) rather than as nested journal entries: a
     * nested entry would repeat the account id and carry its own schema id and field table, and its type and status
     * as names. The columns keep a recent entry to about 60 bytes. Type and status are stored by position in their
     * enums, which is why new kinds are only ever added at the end (the journal map stores them by name).
     */
    static final class AccountSerializer implements CompactSerializer<Account> {
        private static final TxType[] TYPES = TxType.values();
        private static final TxStatus[] STATUSES = TxStatus.values();

        @Override
        public Account read(CompactReader reader) {
            String id = reader.readString("id");
            // Fields added after the first schema are read only when the writer had them, so an entry written by an
            // older member still reads (Compact keeps one schema per version of the class).
            long opening = reader.getFieldKind("openingBalance") == FieldKind.INT64
                    ? reader.readInt64("openingBalance") : Account.UNKNOWN_OPENING;
            String[] jobs = reader.getFieldKind("jobs") == FieldKind.ARRAY_OF_STRING
                    ? reader.readArrayOfString("jobs") : null;
            return new Account(id, reader.readInt64("balance"),
                    reader.readInt64("overdraftLimit"), reader.readInt64("version"), reader.readInt64("fence"),
                    readRecent(reader, id), opening, jobs == null ? List.of() : Arrays.asList(jobs));
        }

        private static List<JournalEntry> readRecent(CompactReader reader, String accountId) {
            if (reader.getFieldKind("recentTxIds") != FieldKind.ARRAY_OF_STRING) {
                JournalEntry[] nested = reader.getFieldKind("recent") == FieldKind.ARRAY_OF_COMPACT
                        ? reader.readArrayOfCompact("recent", JournalEntry.class) : null;
                return nested == null ? List.of() : Arrays.asList(nested);
            }
            String[] txIds = reader.readArrayOfString("recentTxIds");
            byte[] kinds = reader.readArrayOfInt8("recentKinds");
            long[] amounts = reader.readArrayOfInt64("recentAmounts");
            long[] balances = reader.readArrayOfInt64("recentBalances");
            long[] at = reader.readArrayOfInt64("recentAt");
            long[] seq = reader.readArrayOfInt64("recentSeq");
            String[] refs = reader.readArrayOfString("recentRefs");
            List<JournalEntry> recent = new ArrayList<>(txIds.length);
            for (int i = 0; i < txIds.length; i++) {
                recent.add(new JournalEntry(accountId, txIds[i], TYPES[kinds[i] >> 1], amounts[i],
                        STATUSES[kinds[i] & 1], balances[i], at[i], seq[i], refs[i]));
            }
            return recent;
        }

        @Override
        public void write(CompactWriter writer, Account account) {
            writer.writeString("id", account.id());
            writer.writeInt64("balance", account.balance());
            writer.writeInt64("overdraftLimit", account.overdraftLimit());
            writer.writeInt64("version", account.version());
            writer.writeInt64("fence", account.fence());
            writer.writeInt64("openingBalance", account.openingBalance());
            writer.writeArrayOfString("jobs", account.jobs().toArray(new String[0]));
            List<JournalEntry> recent = account.recent();
            int n = recent.size();
            String[] txIds = new String[n];
            byte[] kinds = new byte[n];
            long[] amounts = new long[n];
            long[] balances = new long[n];
            long[] at = new long[n];
            long[] seq = new long[n];
            String[] refs = new String[n];
            for (int i = 0; i < n; i++) {
                JournalEntry entry = recent.get(i);
                txIds[i] = entry.txId();
                kinds[i] = (byte) (entry.type().ordinal() << 1 | entry.status().ordinal());
                amounts[i] = entry.amount();
                balances[i] = entry.balanceAfter();
                at[i] = entry.at();
                seq[i] = entry.seq();
                refs[i] = entry.ref();
            }
            writer.writeArrayOfString("recentTxIds", txIds);
            writer.writeArrayOfInt8("recentKinds", kinds);
            writer.writeArrayOfInt64("recentAmounts", amounts);
            writer.writeArrayOfInt64("recentBalances", balances);
            writer.writeArrayOfInt64("recentAt", at);
            writer.writeArrayOfInt64("recentSeq", seq);
            writer.writeArrayOfString("recentRefs", refs);
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

    static final class JournalEntrySerializer implements CompactSerializer<JournalEntry> {
        @Override
        public JournalEntry read(CompactReader reader) {
            return new JournalEntry(reader.readString("accountId"), reader.readString("txId"),
                    TxType.valueOf(reader.readString("type")), reader.readInt64("amount"),
                    TxStatus.valueOf(reader.readString("status")), reader.readInt64("balanceAfter"),
                    reader.readInt64("at"), reader.readInt64("seq"), reader.readString("ref"));
        }

        @Override
        public void write(CompactWriter writer, JournalEntry entry) {
            writer.writeString("accountId", entry.accountId());
            writer.writeString("txId", entry.txId());
            writer.writeString("type", entry.type().name());
            writer.writeInt64("amount", entry.amount());
            writer.writeString("status", entry.status().name());
            writer.writeInt64("balanceAfter", entry.balanceAfter());
            writer.writeInt64("at", entry.at());
            writer.writeInt64("seq", entry.seq());
            writer.writeString("ref", entry.ref());
        }

        @Override
        public String getTypeName() {
            return JOURNAL_ENTRY_TYPE;
        }

        @Override
        public Class<JournalEntry> getCompactClass() {
            return JournalEntry.class;
        }
    }

    static final class JournalKeySerializer implements CompactSerializer<JournalKey> {
        @Override
        public JournalKey read(CompactReader reader) {
            return new JournalKey(reader.readString("accountId"), reader.readString("txId"));
        }

        @Override
        public void write(CompactWriter writer, JournalKey key) {
            writer.writeString("accountId", key.accountId());
            writer.writeString("txId", key.txId());
        }

        @Override
        public String getTypeName() {
            return JOURNAL_KEY_TYPE;
        }

        @Override
        public Class<JournalKey> getCompactClass() {
            return JournalKey.class;
        }
    }
}
