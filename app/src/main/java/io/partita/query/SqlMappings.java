package io.partita.query;

import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.annotation.Context;
import io.partita.account.AccountSerialization;
import io.partita.cluster.Maps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The SQL mappings Partita publishes, created when the node starts ({@code CREATE MAPPING IF NOT EXISTS}, so every
 * node may run it and the first one wins). Values are read in Compact format under the type names that
 * {@link AccountSerialization} writes, so SQL reads fields without deserializing an account.
 *
 * <ul>
 *   <li>{@code accounts}: {@code id, balance, overdraftLimit, version, fence} (the recent-transactions list is
 *       stored as arrays, which SQL cannot read, so it is not mapped);</li>
 *   <li>{@code journal}: {@code accountId, txId} from the Compact key, and {@code type, amount, status,
 *       balanceAfter, recordedAt, seq, ref} from the entry ({@code recordedAt} is the entry's {@code at}: AT is a
 *       reserved word of the SQL parser, which would make every query have to quote it).</li>
 * </ul>
 *
 * <p>If the engine cannot create them at start (a cluster still forming), {@link #ensure()} retries before the next
 * query; creation is idempotent, so racing nodes are harmless.
 */
@Context
class SqlMappings {

    private static final Logger LOG = LoggerFactory.getLogger(SqlMappings.class);

    static final Map<String, String> DDL = ddl();

    private final HazelcastInstance hazelcast;
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
        return DDL.keySet();
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
        ddl.put(Maps.ACCOUNTS, """
                CREATE MAPPING IF NOT EXISTS "%s" (
                    "id" VARCHAR,
                    "balance" BIGINT,
                    "overdraftLimit" BIGINT,
                    "version" BIGINT,
                    "fence" BIGINT
                ) TYPE IMap OPTIONS (
                    'keyFormat' = 'varchar',
                    'valueFormat' = 'compact',
                    'valueCompactTypeName' = '%s'
                )""".formatted(Maps.ACCOUNTS, AccountSerialization.ACCOUNT_TYPE));
        ddl.put(Maps.JOURNAL, """
                CREATE MAPPING IF NOT EXISTS "%s" (
                    "accountId" VARCHAR EXTERNAL NAME "__key.accountId",
                    "txId" VARCHAR EXTERNAL NAME "__key.txId",
                    "type" VARCHAR EXTERNAL NAME "this.type",
                    "amount" BIGINT EXTERNAL NAME "this.amount",
                    "status" VARCHAR EXTERNAL NAME "this.status",
                    "balanceAfter" BIGINT EXTERNAL NAME "this.balanceAfter",
                    "recordedAt" BIGINT EXTERNAL NAME "this.at",
                    "seq" BIGINT EXTERNAL NAME "this.seq",
                    "ref" VARCHAR EXTERNAL NAME "this.ref"
                ) TYPE IMap OPTIONS (
                    'keyFormat' = 'compact',
                    'keyCompactTypeName' = '%s',
                    'valueFormat' = 'compact',
                    'valueCompactTypeName' = '%s'
                )""".formatted(Maps.JOURNAL, AccountSerialization.JOURNAL_KEY_TYPE,
                AccountSerialization.JOURNAL_ENTRY_TYPE));
        return Collections.unmodifiableMap(ddl);
    }
}
