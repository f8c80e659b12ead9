package io.partita.observe;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.json.JsonMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.partita.account.AccountService;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.node.ProcessingMode;
import io.partita.support.Api;
import io.partita.transaction.TransactionService;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code GET /prometheus} on a one-member node carries Partita's own metrics, named {@code partita_...}. */
@MicronautTest
class PrometheusEndpointTest {

    @Inject
    @Client("/")
    HttpClient http;

    @Inject
    JsonMapper json;

    @Inject
    AccountService accounts;

    @Inject
    TransactionService transactions;

    private String scrape() {
        return http.toBlocking().retrieve(HttpRequest.GET("/prometheus"));
    }

    @Test
    void shouldExposeTransactionsByModeAndOutcomeWithLatencyHistogramsAndTheMembersShare() {
        accounts.open("m-1", 100, 0).toCompletableFuture().join();
        long now = accounts.now();
        transactions.apply("m-1", TxRequest.of("t-1", TxType.DEBIT, 30, now), null).toCompletableFuture().join();
        transactions.apply("m-1", TxRequest.of("t-1", TxType.DEBIT, 30, now), null).toCompletableFuture().join();
        transactions.apply("m-1", TxRequest.of("t-2", TxType.DEBIT, 500, now), ProcessingMode.PARTITIONED)
                .toCompletableFuture().join();
        transactions.apply("nobody", TxRequest.of("t-3", TxType.CREDIT, 5, now), null).toCompletableFuture().join();

        String scrape = scrape();

        for (String line : List.of(
                "partita_transactions_total{mode=\"partitioned\",outcome=\"applied\"} 1.0",
                "partita_transactions_total{mode=\"partitioned\",outcome=\"replayed\"} 1.0",
                "partita_transactions_total{mode=\"partitioned\",outcome=\"rejected\"} 1.0",
                "partita_transactions_total{mode=\"partitioned\",outcome=\"not_found\"} 1.0",
                "partita_transaction_latency_seconds_count{mode=\"partitioned\",outcome=\"applied\"} 1",
                "partita_partitions_owned 271.0",
                "partita_cluster_members 1.0",
                "partita_cluster_safe 1.0",
                "partita_map_entries{map=\"accounts\",replica=\"primary\"} 1.0")) {
            assertTrue(scrape.lines().anyMatch(line::equals), "missing: " + line);
        }
        for (String name : List.of(
                "partita_transaction_latency_seconds_bucket{mode=\"partitioned\",outcome=\"applied\",le=",
                "partita_migrations_completed_total ", "partita_migrations_failed_total ",
                "partita_partitions_moved_total ", "partita_migrations_in_flight ", "partita_heap_live ",
                "partita_heap_after_collection ", "partita_memory_refusing 0.0")) {
            assertTrue(scrape.contains(name), "missing: " + name);
        }
    }

    @Test
    void shouldCountAJobRunThroughTheApiFromItsStartToItsEnd() {
        Api api = new Api(http, json);
        Api.Reply started = api.post("/jobs", "{\"type\":\"AUDIT\",\"concurrent\":true}");
        assertEquals(202, started.status(), started.toString());
        String id = started.text("id");
        await().atMost(Duration.ofSeconds(60)).until(() -> "COMPLETED".equals(api.get("/jobs/" + id).text("state")));
        long accountsProcessed = api.get("/jobs/" + id).number("accountsProcessed");

        // The coordinator sees the job finish at its next tick; the meters follow then.
        List<String> expected = List.of(
                "partita_jobs_started_total{type=\"AUDIT\"} 1.0",
                "partita_jobs_finished_total{outcome=\"completed\",type=\"AUDIT\"} 1.0",
                "partita_job_duration_seconds_count{outcome=\"completed\",type=\"AUDIT\"} 1",
                "partita_job_accounts_total{type=\"AUDIT\"} " + (double) accountsProcessed,
                "partita_jobs_running 0.0");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String scrape = scrape();
            for (String line : expected) {
                assertTrue(scrape.lines().anyMatch(line::equals), "missing: " + line);
            }
        });
        assertTrue(scrape().contains("partita_job_duration_seconds_bucket{outcome=\"completed\",type=\"AUDIT\",le="));
    }

    @Test
    void shouldExposeOnlyHealthAndPrometheusOfTheManagementEndpointsByDefault() {
        assertEquals(HttpStatus.OK, http.toBlocking().exchange(HttpRequest.GET("/health")).getStatus());
        assertEquals(HttpStatus.OK, http.toBlocking().exchange(HttpRequest.GET("/prometheus")).getStatus());
        List<HttpRequest<?>> closed = List.of(HttpRequest.GET("/beans"), HttpRequest.POST("/refresh", "{}"),
                HttpRequest.GET("/threaddump"), HttpRequest.GET("/routes"), HttpRequest.GET("/env"),
                HttpRequest.GET("/loggers"), HttpRequest.GET("/info"), HttpRequest.POST("/stop", "{}"));
        for (HttpRequest<?> request : closed) {
            HttpClientResponseException refused = assertThrows(HttpClientResponseException.class,
                    () -> http.toBlocking().exchange(request), request.getPath());
            assertTrue(refused.getStatus() == HttpStatus.NOT_FOUND || refused.getStatus() == HttpStatus.UNAUTHORIZED,
                    request.getPath() + " answered " + refused.getStatus());
        }
    }
}
