package io.partita.query;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.sql.SqlResult;
import com.hazelcast.sql.SqlRow;
import com.hazelcast.sql.SqlStatement;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.support.Ledgers;
import io.partita.transaction.TransactionService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /sql} on a one-member node: the example queries answer the right rows, every accepted read answers
 * what the engine answers to it as written although the engine is sent the guard's rebuilt statement, answers are
 * capped at the configured rows, time and concurrency and say so, and every hostile statement is refused with a 400
 * problem before reaching the engine, leaving data, mappings, jobs and the file system as they were.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlEndpointTest {

    private static final int SMALL = 20;
    private static final int BULK = 1_005;
    /** One debit of each small account, and the refused one. */
    private static final int JOURNAL_ROWS = SMALL + 1;
    /** The rows an answer carries at most ({@code partita.sql.max-rows} as shipped). */
    private static final int MAX_ROWS = 1000;
    /** Of {@link ReadStatements#ALL}, those with more rows than an answer carries (most of them read every account). */
    private static final int TRUNCATED_READS = 6;
    /** The one accepted read that answers no rows: its string literal is no account's id. */
    private static final Set<String> READS_WITHOUT_ROWS =
            Set.of("SELECT id FROM accounts WHERE id = 'it''s -- not a comment; nor /* this */'");

    @Inject
    @Client("/")
    HttpClient http;

    @Inject
    HazelcastInstance hazelcast;

    @Inject
    AccountService accounts;

    @Inject
    TransactionService transactions;

    @Inject
    MeterRegistry meters;

    @Inject
    SqlPermits permits;

    /** When the fixture's transactions were stamped, by the cluster's clock that stamps every request. */
    long stampedAt;

    @BeforeAll
    void openAccounts() {
        // Stamped now by the clock the node stamps requests with: the oldest member deletes journal entries older than
        // the retention (24 h), so a fixture stamped in 1970 would vanish from the journal in the middle of the class.
        stampedAt = accounts.now();
        // a-01 .. a-20 with balances 100 .. 2000, and one debit of 7 on each: 93, 193, ..., 1993; and one debit on
        // a-20 that its balance refuses, so that the journal holds a REJECTED entry too.
        for (int i = 1; i <= SMALL; i++) {
            String id = String.format("a-%02d", i);
            accounts.open(id, i * 100L, 0).toCompletableFuture().join();
            transactions.apply(id, TxRequest.of("t-" + id, TxType.DEBIT, 7, stampedAt), null)
                    .toCompletableFuture().join();
        }
        transactions.apply("a-20", TxRequest.of("t-refused", TxType.DEBIT, 1_000_000, stampedAt), null)
                .toCompletableFuture().join();
        Map<String, Account> bulk = new HashMap<>();
        for (int i = 0; i < BULK; i++) {
            bulk.put("bulk-" + i, Account.open(1_000_000L + i, 0));
        }
        AccountFeature.accounts(hazelcast).putAll(bulk);
        // The journal writer copies entries to the journal behind the requests: wait until it holds all of them.
        assertEquals(JOURNAL_ROWS, Ledgers.settledJournal(hazelcast).size(), "the journal holds the fixture's entries");
    }

    @Test
    void shouldAnswerTheExampleQueryWithTheLowestBalancesInOrder() {
        Map<String, Object> answer = query(
                "SELECT id, balance FROM accounts WHERE balance < ? ORDER BY balance LIMIT 10", List.of(1_000));
        assertEquals(List.of("id", "balance"), answer.get("columns"));
        assertEquals(List.of("VARCHAR", "BIGINT"), answer.get("columnTypes"));
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            expected.add(List.of(String.format("a-%02d", i), i * 100 - 7));
        }
        assertEquals(expected, answer.get("rows"));
        assertEquals(false, answer.get("truncated"));
        assertEquals(1000, answer.get("maxRows"));
        assertEquals(5000, answer.get("timeoutMillis"));
    }

    @Test
    void shouldReadTheJournalThroughItsCompactKey() {
        Map<String, Object> answer = query("SELECT accountId, txId, type, amount, status, balanceAfter, recordedAt "
                + "FROM journal WHERE accountId = ?", List.of("a-03"));
        // JSON numbers come back as Integer when they fit and as Long otherwise, as stampedAt does not.
        assertEquals(List.of(List.of("a-03", "t-a-03", "DEBIT", 7, "APPLIED", 293, stampedAt)), answer.get("rows"));
    }

    @Test
    void shouldAggregateTheTablesAndRefuseEveryStatementThatCouldHoldMoreThanOneTablesRows() {
        assertEquals(List.of(List.of(SMALL + BULK)), query("SELECT COUNT(*) FROM accounts", List.of()).get("rows"));
        double reachedEngineBefore = queries("answered") + queries("failed");
        for (String sql : UnboundedStatements.ALL) {
            HttpClientResponseException refused = refuse(sql, List.of());
            assertEquals(HttpStatus.BAD_REQUEST, refused.getStatus(), sql);
            Map<String, Object> problem = problem(refused);
            assertTrue(problem.get("type").toString().endsWith("/sql-refused"), sql + " -> " + problem);
            assertTrue(problem.get("detail").toString().contains(SqlGuard.Bound.WHY), sql + " -> " + problem);
        }
        assertEquals(reachedEngineBefore, queries("answered") + queries("failed"));
    }

    @Test
    void shouldCapTheRowsAndSaySo() {
        Map<String, Object> answer = query("SELECT id FROM accounts", List.of());
        assertEquals(1000, ((List<?>) answer.get("rows")).size());
        assertEquals(1000, answer.get("rowCount"));
        assertEquals(true, answer.get("truncated"));
    }

    @Test
    void shouldAnswerAnEngineErrorAsAProblemWithoutInternals() {
        HttpClientResponseException refused = refuse("SELECT nope FROM accounts", List.of());
        Map<String, Object> problem = problem(refused);
        assertEquals(400, problem.get("status"));
        assertTrue(problem.get("type").toString().endsWith("sql-invalid"));
        assertTrue(problem.get("detail").toString().contains("nope"), problem.toString());
        assertFalse(problem.get("detail").toString().contains("com.hazelcast"));
    }

    @Test
    void shouldRefuseEveryHostileStatementBeforeTheEngineAndChangeNothing() {
        Ledgers.settledJournal(hazelcast);
        Map<String, Account> accountsBefore = Map.copyOf(AccountFeature.accounts(hazelcast));
        Map<JournalKey, JournalRecord> journalBefore = Map.copyOf(AccountFeature.journal(hazelcast));
        assertEquals(JOURNAL_ROWS, journalBefore.size(), "the journal to compare holds the fixture's entries");
        assertEquals(SMALL + BULK, accountsBefore.size());
        Set<String> mappingsBefore = mappings();
        double reachedEngineBefore = queries("answered") + queries("failed");
        double refusedBefore = queries("refused");
        Set<Long> jobsBefore = jobIds();

        for (String sql : HostileStatements.ALL) {
            HttpClientResponseException refused = refuse(sql, List.of());
            assertEquals(HttpStatus.BAD_REQUEST, refused.getStatus(), sql);
            assertEquals("application/problem+json", refused.getResponse().getContentType().orElseThrow().toString(),
                    sql);
            Map<String, Object> problem = problem(refused);
            assertTrue(problem.get("type").toString().endsWith("/sql-refused"), sql + " -> " + problem);
            assertFalse(problem.get("detail").toString().contains("Exception"), sql + " -> " + problem);
        }

        Set<Long> jobsAfter = jobIds();
        assertEquals(reachedEngineBefore, queries("answered") + queries("failed"), "a hostile statement ran");
        assertEquals(refusedBefore + HostileStatements.ALL.size(), queries("refused"));
        assertEquals(accountsBefore, Map.copyOf(AccountFeature.accounts(hazelcast)));
        assertEquals(journalBefore, Map.copyOf(AccountFeature.journal(hazelcast)));
        assertEquals(Set.of("accounts", "journal", "account_records", "journal_records"), mappingsBefore);
        assertEquals(mappingsBefore, mappings());
        // Every SQL query runs as a light job; a CREATE JOB would add a normal one.
        assertTrue(jobsBefore.containsAll(jobsAfter), "a job was created");
        assertTrue(hazelcast.getJet().getJobs().stream().allMatch(Job::isLightJob), "a job was created");
        assertFalse(Files.exists(Path.of(HostileStatements.FILE_DIRECTORY)));
    }

    @Test
    void shouldAnswerEveryAcceptedReadAsTheEngineAnswersItAsWritten() {
        List<String> differences = new ArrayList<>();
        int truncatedReads = 0;
        for (ReadStatements.Read read : ReadStatements.ALL) {
            Map<String, Object> answer;
            try {
                answer = query(read.sql(), read.params());
            } catch (HttpClientResponseException e) {
                differences.add(read.sql() + ": " + e.getStatus() + " " + problem(e).get("detail"));
                continue;
            }
            List<Object> direct = direct(read.sql(), read.params());
            Object columns = direct.get(0);
            List<List<Object>> rows = sorted(direct.subList(1, direct.size()));
            List<List<Object>> answered = sorted(rows(answer));
            if (!columns.equals(answer.get("columns"))) {
                differences.add(read.sql() + ": columns " + answer.get("columns") + " but the engine " + columns);
            }
            if (rows.isEmpty() != READS_WITHOUT_ROWS.contains(read.sql())) {
                // An empty answer compared with an empty answer checks nothing: every other read must find rows.
                differences.add(read.sql() + ": the engine answers " + rows.size() + " rows");
            }
            if (!Integer.valueOf(answered.size()).equals(answer.get("rowCount"))) {
                differences.add(read.sql() + ": rowCount " + answer.get("rowCount") + " but " + answered.size()
                        + " rows");
            }
            if (rows.size() <= MAX_ROWS) {
                if (!Boolean.FALSE.equals(answer.get("truncated"))
                        || !rows.toString().equals(answered.toString())) {
                    differences.add(read.sql() + ": rows " + answer.get("rows") + " (truncated "
                            + answer.get("truncated") + ") but the engine " + rows);
                }
            } else {
                // The engine has more rows than an answer carries: the answer holds the cap's worth of them, each one
                // of the engine's (in no order that a statement without ORDER BY promises), and says it was cut.
                truncatedReads++;
                List<List<Object>> notTheEngines = notIn(answered, rows);
                if (!Boolean.TRUE.equals(answer.get("truncated")) || answered.size() != MAX_ROWS
                        || !notTheEngines.isEmpty()) {
                    differences.add(read.sql() + ": " + answered.size() + " rows (truncated "
                            + answer.get("truncated") + ") of the engine's " + rows.size() + ", not the engine's: "
                            + notTheEngines);
                }
            }
        }
        assertEquals(List.of(), differences);
        assertEquals(TRUNCATED_READS, truncatedReads, "reads with more rows than an answer carries");
    }

    @Test
    void shouldPublishThroughStarOnlyTheDocumentedColumns() {
        Map<String, Object> account = query("SELECT * FROM accounts WHERE id = ?", List.of("a-01"));
        assertEquals(List.of("id", "balance", "overdraftLimit", "version", "fence"), account.get("columns"));
        assertEquals(List.of(List.of("a-01", 93, 0, 1, 0)), account.get("rows"));
        Map<String, Object> journal = query("SELECT * FROM journal WHERE accountId = ?", List.of("a-01"));
        assertEquals(List.of("accountId", "txId", "type", "amount", "status", "balanceAfter", "recordedAt", "seq",
                "ref"), journal.get("columns"));
        assertEquals(List.of(Arrays.asList("a-01", "t-a-01", "DEBIT", 7, "APPLIED", 93, stampedAt, 1, null)),
                journal.get("rows"));
    }

    @Test
    void shouldRefuseANumberParameterTooLargeForADoubleAsAProblemNotAFailure() {
        for (String params : List.of("[1e400]", "[-1e400]", "[NaN]", "[Infinity]")) {
            HttpClientResponseException refused = assertStatus(() -> http.toBlocking().exchange(
                    HttpRequest.POST("/sql", "{\"sql\":\"SELECT id FROM accounts WHERE balance < ?\",\"params\":"
                            + params + "}").contentType(MediaType.APPLICATION_JSON_TYPE),
                    Argument.mapOf(String.class, Object.class)));
            assertEquals(HttpStatus.BAD_REQUEST, refused.getStatus(), params);
            assertEquals("application/problem+json", refused.getResponse().getContentType().orElseThrow().toString(),
                    params);
            Map<String, Object> problem = problem(refused);
            assertEquals(400, problem.get("status"), params);
            if (params.contains("e400")) {
                // JSON allows the number; it arrives as an infinite double, which no SQL number can hold.
                assertTrue(problem.get("type").toString().endsWith("/sql-refused"), problem.toString());
                assertTrue(problem.get("detail").toString().contains("parameter 1 is not a finite number"),
                        problem.toString());
            }
        }
    }

    @Test
    void shouldAnswer503WithRetryAfterWhileTheMostQueriesAreRunning() throws Exception {
        int max = 4;
        CountDownLatch running = new CountDownLatch(max);
        CountDownLatch finish = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(max);
        try {
            List<Future<String>> holders = new ArrayList<>();
            for (int i = 0; i < max; i++) {
                holders.add(pool.submit(() -> permits.run(() -> {
                    running.countDown();
                    awaitQuietly(finish);
                    return "done";
                })));
            }
            assertTrue(running.await(10, TimeUnit.SECONDS), "the queries holding the permits did not start");
            double reachedEngineBefore = queries("answered") + queries("failed");

            HttpClientResponseException refused = refuse("SELECT id FROM accounts", List.of());
            assertEquals(HttpStatus.SERVICE_UNAVAILABLE, refused.getStatus());
            assertEquals("1", refused.getResponse().getHeaders().get("Retry-After"));
            assertEquals("application/problem+json", refused.getResponse().getContentType().orElseThrow().toString());
            Map<String, Object> problem = problem(refused);
            assertEquals(503, problem.get("status"));
            assertTrue(problem.get("detail").toString().contains("maximum of " + max), problem.toString());
            assertEquals(reachedEngineBefore, queries("answered") + queries("failed"));

            finish.countDown();
            for (Future<String> holder : holders) {
                assertEquals("done", holder.get(10, TimeUnit.SECONDS));
            }
            assertEquals(List.of(List.of("a-01")), query("SELECT id FROM accounts WHERE id = 'a-01'", List.of())
                    .get("rows"));
        } finally {
            finish.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRefuseAParameterThatIsNotAScalar() {
        HttpClientResponseException refused = refuse("SELECT id FROM accounts WHERE id = ?",
                List.of(Map.of("id", "a-01")));
        assertTrue(problem(refused).get("type").toString().endsWith("/sql-refused"));
    }

    @Test
    void shouldRefuseARequestWithoutAStatement() {
        HttpClientResponseException refused = assertStatus(() -> http.toBlocking().exchange(
                HttpRequest.POST("/sql", Map.of("params", List.of())), Argument.mapOf(String.class, Object.class)));
        assertEquals(HttpStatus.BAD_REQUEST, refused.getStatus());
    }

    @Test
    void shouldRefuseAStatementThatIsNotAJsonString() {
        HttpClientResponseException refused = assertStatus(() -> http.toBlocking().exchange(
                HttpRequest.POST("/sql", Map.of("sql", List.of("SELECT id FROM accounts"))),
                Argument.mapOf(String.class, Object.class)));
        assertEquals(HttpStatus.BAD_REQUEST, refused.getStatus());
        assertEquals("sql", ((Map<?, ?>) ((List<?>) problem(refused).get("errors")).get(0)).get("field"));
    }

    private Map<String, Object> query(String sql, List<Object> params) {
        HttpResponse<Map<String, Object>> response = http.toBlocking().exchange(
                HttpRequest.POST("/sql", Map.of("sql", sql, "params", params)),
                Argument.mapOf(String.class, Object.class));
        assertEquals(HttpStatus.OK, response.getStatus());
        return response.body();
    }

    private HttpClientResponseException refuse(String sql, List<Object> params) {
        return assertStatus(() -> http.toBlocking().exchange(
                HttpRequest.POST("/sql", Map.of("sql", sql, "params", params)),
                Argument.mapOf(String.class, Object.class)));
    }

    private static HttpClientResponseException assertStatus(Runnable call) {
        try {
            call.run();
        } catch (HttpClientResponseException e) {
            return e;
        }
        throw new AssertionError("expected an error answer");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> problem(HttpClientResponseException e) {
        return e.getResponse().getBody(Map.class).orElseThrow();
    }

    /** The engine's own answer to {@code sql} as written: its columns, then its rows as the endpoint renders them. */
    private List<Object> direct(String sql, List<Object> params) {
        String written = sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql;
        List<Object> answer = new ArrayList<>();
        try (SqlResult result = hazelcast.getSql().execute(
                new SqlStatement(written).setParameters(SqlService.parameters(params, 4000)))) {
            answer.add(result.getRowMetadata().getColumns().stream().map(column -> column.getName()).toList());
            for (SqlRow row : result) {
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < result.getRowMetadata().getColumnCount(); i++) {
                    values.add(SqlService.json(row.getObject(i)));
                }
                answer.add(values);
            }
        }
        return answer;
    }

    @SuppressWarnings("unchecked")
    private static List<List<Object>> rows(Map<String, Object> answer) {
        return (List<List<Object>>) answer.get("rows");
    }

    /** Rows in a fixed order, numbers in plain decimal, so that JSON's and the engine's number types compare. */
    @SuppressWarnings("unchecked")
    private static List<List<Object>> sorted(List<?> rows) {
        List<List<Object>> text = new ArrayList<>();
        for (Object row : rows) {
            text.add(((List<Object>) row).stream().map(value -> (Object) (value instanceof Number
                    ? new BigDecimal(value.toString()).stripTrailingZeros().toPlainString()
                    : String.valueOf(value))).toList());
        }
        text.sort(Comparator.comparing(Object::toString));
        return text;
    }

    /** The rows of {@code some} that {@code all} does not hold, each of {@code all}'s rows matching at most one. */
    private static List<List<Object>> notIn(List<List<Object>> some, List<List<Object>> all) {
        Map<String, Integer> left = new HashMap<>();
        all.forEach(row -> left.merge(row.toString(), 1, Integer::sum));
        List<List<Object>> missing = new ArrayList<>();
        for (List<Object> row : some) {
            if (left.merge(row.toString(), -1, Integer::sum) < 0) {
                missing.add(row);
            }
        }
        return missing;
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Set<String> mappings() {
        Set<String> names = new HashSet<>();
        for (String catalog : List.of("mappings", "views")) {
            for (SqlRow row : hazelcast.getSql().execute("SELECT table_name FROM information_schema." + catalog)) {
                names.add(row.getObject(0));
            }
        }
        return names;
    }

    private Set<Long> jobIds() {
        return hazelcast.getJet().getJobs().stream().map(Job::getId).collect(Collectors.toSet());
    }

    private double queries(String outcome) {
        return meters.get("partita.sql.queries").tag("outcome", outcome).counter().count();
    }
}
