package io.partita.query;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.spi.exception.RetryableException;
import com.hazelcast.sql.HazelcastSqlException;
import com.hazelcast.sql.SqlExpectedResultType;
import com.hazelcast.sql.SqlResult;
import com.hazelcast.sql.SqlRow;
import com.hazelcast.sql.SqlStatement;
import com.hazelcast.sql.impl.SqlErrorCode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.partita.refusal.Refusal;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.regex.Pattern;

/**
 * Runs the read-only queries of {@code POST /sql}: {@link SqlGuard} first (a refused statement never reaches the
 * engine, and an accepted one reaches it as the guard rebuilt it), then the engine with the caps: at most
 * {@code maxConcurrent} queries at once on this node ({@link SqlPermits}), a query that must return rows
 * ({@link SqlExpectedResultType#ROWS}, so the engine itself would also refuse anything else), a timeout after which
 * the engine cancels it, and at most {@code maxRows} rows read before the result is closed, which cancels the rest.
 * On the HTTP blocking pool, many queries at once; the engine runs the query on the members' Jet
 * threads and streams rows back to this node. The bean's fields are final; what queries share (the permits, the
 * mappings, the counters) is safe for concurrent callers.
 *
 * <p>{@code partita_sql_queries_total{outcome}} counts refused, answered and failed queries.
 */
@Singleton
class SqlService {

    private static final Logger LOG = LoggerFactory.getLogger(SqlService.class);
    /** "From line 1, column 8 to line 1, column 13: ", "At line 1, column 8: " and " at line 1, column 71". */
    private static final Pattern POSITION = Pattern.compile(
            "^(From line \\d+, column \\d+ to line \\d+, column \\d+|At line \\d+, column \\d+): "
                    + "| at line \\d+, column \\d+");

    private final HazelcastInstance hazelcast;
    private final SqlMappings mappings;
    private final SqlGuard guard;
    private final SqlProperties properties;
    private final SqlPermits permits;
    private final Counter refused;
    private final Counter answered;
    private final Counter failed;

    SqlService(HazelcastInstance hazelcast, SqlMappings mappings, SqlProperties properties, SqlPermits permits,
               MeterRegistry registry) {
        this.hazelcast = hazelcast;
        this.mappings = mappings;
        this.properties = properties;
        this.permits = permits;
        this.guard = new SqlGuard(mappings.tables(), properties.maxLength());
        this.refused = counter(registry, "refused");
        this.answered = counter(registry, "answered");
        this.failed = counter(registry, "failed");
    }

    SqlApi.Answer query(String sql, List<Object> params) {
        SqlGuard.Accepted accepted;
        List<Object> parameters;
        try {
            accepted = guard.check(sql);
            parameters = parameters(params, properties.maxLength());
            accepted.checkParameters(parameters);
        } catch (SqlRefusal refusal) {
            refused.increment();
            throw Refusal.sql(Refusal.Kind.SQL_REFUSED,
                    "Only a single SELECT over the published tables is accepted: " + refusal.getMessage() + ".");
        }
        return permits.run(() -> run(accepted.sql(), parameters));
    }

    private SqlApi.Answer run(String statement, List<Object> parameters) {
        ensureMappings();
        SqlStatement query = new SqlStatement(statement)
                .setParameters(parameters)
                .setExpectedResultType(SqlExpectedResultType.ROWS)
                .setTimeoutMillis(properties.timeout().toMillis())
                .setCursorBufferSize(Math.min(properties.maxRows() + 1, 4096));
        long started = System.nanoTime();
        try (SqlResult result = hazelcast.getSql().execute(query)) {
            List<String> columns = result.getRowMetadata().getColumns().stream()
                    .map(column -> column.getName())
                    .toList();
            List<String> columnTypes = result.getRowMetadata().getColumns().stream()
                    .map(column -> column.getType().name())
                    .toList();
            List<List<Object>> rows = new ArrayList<>();
            Iterator<SqlRow> iterator = result.iterator();
            while (rows.size() < properties.maxRows() && iterator.hasNext()) {
                rows.add(row(iterator.next(), columns.size()));
            }
            boolean truncated = iterator.hasNext();
            answered.increment();
            return new SqlApi.Answer(columns, columnTypes, rows, rows.size(), truncated, properties.maxRows(),
                    properties.timeout().toMillis());
        } catch (HazelcastSqlException e) {
            failed.increment();
            throw translate(e, properties.timeout(), Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /**
     * The mappings are created at start, but the engine cannot create them while the cluster is still forming; until
     * it can, a query is refused as {@code UNAVAILABLE}, a transient refusal (the next one tries again), not a fault.
     */
    private void ensureMappings() {
        try {
            mappings.ensure();
        } catch (RuntimeException e) {
            failed.increment();
            LOG.warn("SQL mappings not created yet: {}", e.getMessage());
            throw Refusal.unavailable("The SQL engine is not ready yet: the cluster is still forming. Retry "
                    + "shortly.", SqlPermits.RETRY_AFTER);
        }
    }

    private static List<Object> row(SqlRow row, int columns) {
        List<Object> values = new ArrayList<>(columns);
        for (int i = 0; i < columns; i++) {
            values.add(json(row.getObject(i)));
        }
        return values;
    }

    /** A value as JSON can carry it: numbers, strings and booleans as they are, anything else as its text. */
    static Object json(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Long
                || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigDecimal) {
            return value;
        }
        if (value instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? d.toString() : d;
        }
        if (value instanceof Float f) {
            return f.isNaN() || f.isInfinite() ? f.toString() : f.doubleValue();
        }
        if (value instanceof TemporalAccessor || value instanceof Character) {
            return value.toString();
        }
        return String.valueOf(value);
    }

    /**
     * Parameters as the engine takes them; only JSON scalars, so a client cannot pass an object of its making. A
     * string is bounded like the statement; a number must be finite (JSON's 1e400 arrives as an infinite double).
     */
    static List<Object> parameters(List<Object> params, int maxLength) {
        if (params == null) {
            return List.of();
        }
        if (params.size() > SqlApi.MAX_PARAMS) {
            throw new SqlRefusal("more than " + SqlApi.MAX_PARAMS + " parameters");
        }
        List<Object> values = new ArrayList<>(params.size());
        for (int i = 0; i < params.size(); i++) {
            Object param = params.get(i);
            if (param instanceof String text && text.length() > maxLength) {
                throw new SqlRefusal("parameter " + (i + 1) + " is longer than " + maxLength + " characters");
            } else if (param == null || param instanceof String || param instanceof Boolean || param instanceof Long
                    || param instanceof BigDecimal) {
                values.add(param);
            } else if (param instanceof Integer || param instanceof Short || param instanceof Byte) {
                values.add(((Number) param).longValue());
            } else if (param instanceof BigInteger big) {
                values.add(new BigDecimal(big));
            } else if (param instanceof Double || param instanceof Float) {
                if (!Double.isFinite(((Number) param).doubleValue())) {
                    throw new SqlRefusal("parameter " + (i + 1) + " is not a finite number");
                }
                values.add(new BigDecimal(param.toString()));
            } else {
                throw new SqlRefusal("parameter " + (i + 1) + " is not a string, number, boolean or null");
            }
        }
        return values;
    }

    /**
     * The engine's verdict as a {@link Refusal} (web/Refusals gives each kind its status).
     * <ul>
     *   <li>A query stopped at the time cap is {@code SQL_TOO_LONG}, stating the cap: the client's to narrow, since
     *       retrying the same query would be stopped again. A query that runs as a Jet job reports its timeout as a
     *       forceful cancellation with the generic code, so a cancellation at or past the cap counts as one.</li>
     *   <li>The cluster changing under the query (by code, or a retryable cause) is {@code UNAVAILABLE}, transient.
     *   </li>
     *   <li>Errors in the query (parse, validation, data, an unknown object) are the client's: {@code SQL_INVALID}
     *       with the engine's first line, unless it names code.</li>
     *   <li>Anything else failed inside the engine: an IllegalStateException, which the error renderer logs with its
     *       cause and answers without internals.</li>
     * </ul>
     */
    static RuntimeException translate(HazelcastSqlException e, Duration timeout, Duration elapsed) {
        int code = e.getCode();
        if (code == SqlErrorCode.TIMEOUT || code == SqlErrorCode.CANCELLED_BY_USER
                || elapsed.compareTo(timeout) >= 0 && cancelled(e)) {
            return Refusal.sql(Refusal.Kind.SQL_TOO_LONG, "The query did not finish within the cap of "
                    + timeout.toMillis() + " ms and was cancelled.");
        }
        if (code == SqlErrorCode.CONNECTION_PROBLEM || code == SqlErrorCode.PARTITION_DISTRIBUTION
                || code == SqlErrorCode.TOPOLOGY_CHANGE || code == SqlErrorCode.RESTARTABLE_ERROR
                || code == SqlErrorCode.MAP_LOADING_IN_PROGRESS || retryable(e)) {
            return Refusal.unavailable("The cluster changed while the query ran. Retry it.",
                    SqlPermits.RETRY_AFTER);
        }
        if (code == SqlErrorCode.PARSING || code == SqlErrorCode.DATA_EXCEPTION
                || code == SqlErrorCode.OBJECT_NOT_FOUND || code == SqlErrorCode.INDEX_INVALID) {
            return Refusal.sql(Refusal.Kind.SQL_INVALID, "The engine refused the query: "
                    + clientMessage(e.getMessage()));
        }
        return new IllegalStateException("SQL engine failure (code " + code + ")", e);
    }

    /** A member left, or is not yet or no longer running, somewhere in the cause chain. */
    private static boolean retryable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RetryableException || cause instanceof HazelcastInstanceNotActiveException) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    private static boolean cancelled(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof CancellationException
                    || cause.getMessage() != null && cause.getMessage().contains("CANCEL")) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /**
     * The engine's message, first line only, without anything that names code, and without line and column: they
     * count in the statement as the guard rebuilt it, not as the client wrote it.
     */
    static String clientMessage(String message) {
        if (message == null || message.isBlank()) {
            return "no reason given.";
        }
        String line = POSITION.matcher(message.lines().findFirst().orElse("").trim()).replaceAll("");
        if (line.contains("java.") || line.contains("com.hazelcast") || line.contains("org.apache")
                || line.contains("Exception") || line.length() > 500) {
            return "the statement is not valid SQL for these tables.";
        }
        return line;
    }

    private static Counter counter(MeterRegistry registry, String outcome) {
        return Counter.builder("partita.sql.queries")
                .description("POST /sql queries by outcome: refused before the engine, answered, or failed in it")
                .tag("outcome", outcome)
                .register(registry);
    }
}
