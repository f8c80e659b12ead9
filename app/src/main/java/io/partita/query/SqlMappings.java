package io.partita.query;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.annotation.Context;
import io.partita.account.AccountFeature;
import io.partita.account.JournalKey;
import io.partita.account.Tail;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The SQL tables Partita publishes: {@code accounts} (the account's fields without the tail) and {@code journal} (one
 * row per journal entry; entries still in an account's tail, tens of milliseconds normally, are not in it yet). Created
 * when the node starts ({@code CREATE OR REPLACE}, the same definition from every node, so racing nodes are harmless)
 * and, if that failed, before the next query ({@link #ensure()}).
 */
@Context
class SqlMappings {

    /*
     * Tables
     *
     * - accounts: a view of id (the key), balance, overdraftLimit, version, fence (the tail is a byte array, which SQL
     *   does not read, so it is not mapped).
     *
     * - journal: a view of one row per journal entry: accountId, txId from the key, and type, amount, status,
     *   balanceAfter, recordedAt, seq, ref from the entry, type and status decoded from the one byte they are stored in
     *   (recordedAt is the entry's at: AT is a reserved word of the SQL parser, which would make every query have to
     *   quote it). Values are read under the Compact type names that AccountFeature writes.
     */

    private static final Logger LOG = LoggerFactory.getLogger(SqlMappings.class);

    /** The stored rows, under the views that name and decode them. */
    static final String ACCOUNT_RECORDS = "account_records";
    static final String JOURNAL_RECORDS = "journal_records";
    /** What a query may name: the accounts and the journal. */
    static final Set<String> TABLES = Set.of(AccountFeature.ACCOUNTS, AccountFeature.JOURNAL);
    /** The statements that create them, in order. */
    static final Map<String, String> DDL = ddl();

    private final HazelcastInstance hazelcast;
    /** Set once, under the bean's monitor, after the mappings were created; read without it by every query. */
    private volatile boolean created;

    SqlMappings(HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        try {
            ensure();
        } catch (RuntimeException e) {
            LOG.warn("SQL mappings not created yet, will retry on the first query: {}", e.getMessage());
        }
    }

    /** The names of the published mappings, as a query must spell them. */
    Set<String> tables() {
        return TABLES;
    }

    void ensure() {
        if (created) {
            return;
        }
        synchronized (this) {
            if (!created) {
                DDL.values().forEach(statement -> hazelcast.getSql().execute(statement).close());
                created = true;
            }
        }
    }

    private static Map<String, String> ddl() {
        Map<String, String> ddl = new LinkedHashMap<>();
        // An account's id is its key, which a mapping cannot rename: the stored rows go under a mapping of their own,
        // and the published name is a view that calls the key "id".
        ddl.put(ACCOUNT_RECORDS, """
                CREATE OR REPLACE MAPPING "%s" EXTERNAL NAME "%s" (
                    "__key" VARCHAR,
                    "balance" BIGINT,
                    "overdraftLimit" BIGINT,
                    "version" BIGINT,
                    "fence" BIGINT
                ) TYPE IMap OPTIONS (
                    'keyFormat' = 'varchar',
                    'valueFormat' = 'compact',
                    'valueCompactTypeName' = '%s'
                )""".formatted(ACCOUNT_RECORDS, AccountFeature.ACCOUNTS, AccountFeature.ACCOUNT_TYPE));
        ddl.put(AccountFeature.ACCOUNTS, """
                CREATE OR REPLACE VIEW "%s" AS SELECT
                    "__key" AS "id", "balance", "overdraftLimit", "version", "fence"
                FROM "%s\"""".formatted(AccountFeature.ACCOUNTS, ACCOUNT_RECORDS));
        // The journal's rows as stored: the key's ids read from the key object, type and status as one number. Not
        // published: the view below is what a query names.
        ddl.put(JOURNAL_RECORDS, """
                CREATE OR REPLACE MAPPING "%s" EXTERNAL NAME "%s" (
                    "accountId" VARCHAR EXTERNAL NAME "__key.accountId",
                    "txId" VARCHAR EXTERNAL NAME "__key.txId",
                    "kind" TINYINT EXTERNAL NAME "this.kind",
                    "amount" BIGINT EXTERNAL NAME "this.amount",
                    "balanceAfter" BIGINT EXTERNAL NAME "this.balanceAfter",
                    "recordedAt" BIGINT EXTERNAL NAME "this.at",
                    "seq" BIGINT EXTERNAL NAME "this.seq",
                    "ref" VARCHAR EXTERNAL NAME "this.ref"
                ) TYPE IMap OPTIONS (
                    'keyFormat' = 'java',
                    'keyJavaClass' = '%s',
                    'valueFormat' = 'compact',
                    'valueCompactTypeName' = '%s'
                )""".formatted(JOURNAL_RECORDS, AccountFeature.JOURNAL, JournalKey.class.getName(),
                AccountFeature.JOURNAL_RECORD_TYPE));
        ddl.put(AccountFeature.JOURNAL, """
                CREATE OR REPLACE VIEW "%s" AS SELECT
                    "accountId", "txId", %s AS "type", "amount", %s AS "status", "balanceAfter", "recordedAt",
                    "seq", "ref"
                FROM "%s\"""".formatted(AccountFeature.JOURNAL, names(kind -> Tail.type((byte) kind).name()),
                names(kind -> Tail.status((byte) kind).name()), JOURNAL_RECORDS));
        return Collections.unmodifiableMap(ddl);
    }

    /** A CASE over every kind a journal entry can have, naming its type or status as the API spells them. */
    private static String names(IntFunction<String> name) {
        StringBuilder sql = new StringBuilder("CASE \"kind\"");
        for (TxType type : TxType.values()) {
            for (TxStatus status : TxStatus.values()) {
                for (boolean merged : new boolean[] {false, true}) {
                    byte kind = Tail.kind(type, status, merged);
                    sql.append(" WHEN ").append(kind).append(" THEN '").append(name.apply(kind)).append('\'');
                }
            }
        }
        return sql.append(" END").toString();
    }
}
