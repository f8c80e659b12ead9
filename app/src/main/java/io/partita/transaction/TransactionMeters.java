package io.partita.transaction;

import com.hazelcast.core.HazelcastInstance;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.core.annotation.Nullable;
import io.partita.account.TxOutcome;
import io.partita.account.TxStatus;
import io.partita.node.NodeActivity;
import io.partita.node.ProcessingMode;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts and times the transactions this node answers, by processing mode and outcome:
 * {@code partita_transactions_total{mode,outcome}} and the histogram {@code partita_transaction_latency_seconds}, and
 * the batches it answers ({@code partita_batches_total}, {@code partita_batch_items_total}). These are the HTTP
 * edge's meters: Micrometer's own per-request filter ({@code http_server_requests}) is off, for the hot routes'
 * sake (see application.yml).
 * It is also this node's {@link NodeActivity}, put in the member's user context so that the dashboard's per-node
 * rate can be gathered from every member.
 * <b>Threads:</b> called from whatever thread completes a transaction; meters are created once per (mode, outcome) and
 * cached in a concurrent map, and Micrometer's meters and {@link RateWindow} take concurrent updates.
 *
 * <p>Outcomes: {@code applied}, {@code rejected} (funds or limits), {@code replayed} (a retry answered with the first
 * answer), {@code conflict} (a txId reused with another payload), {@code not_found}, {@code unavailable} (a 503 the
 * client should retry), {@code invalid} (another 4xx) and {@code error}.
 */
@Context
public class TransactionMeters implements NodeActivity {

    /** Bucket bounds of the latency histogram: from a local entry processor to a slow retry. */
    private static final Duration[] BUCKETS = {
        Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
        Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(5)};

    private final MeterRegistry registry;
    private final Counter batches;
    private final Counter batchItems;
    private final Map<String, Meters> meters = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();
    private final RateWindow rate = new RateWindow(System::currentTimeMillis);

    @Inject
    TransactionMeters(MeterRegistry registry, HazelcastInstance hazelcast) {
        this.registry = registry;
        this.batches = Counter.builder("partita.batches")
                .description("Batches of transactions (POST /transactions/batch) answered by this node")
                .register(registry);
        this.batchItems = Counter.builder("partita.batch.items")
                .description("Items of the batches this node answered, valid or not")
                .register(registry);
        if (hazelcast != null) {
            hazelcast.getUserContext().put(NodeActivity.USER_CONTEXT_KEY, this);
        }
    }

    /** Meters in a registry of their own, reported to no member: for a service built outside a node. */
    public static TransactionMeters detached() {
        return new TransactionMeters(new SimpleMeterRegistry(), null);
    }

    /** Records one transaction of the account API, from its outcome or its failure. */
    public void record(ProcessingMode mode, @Nullable TxOutcome outcome, @Nullable Throwable failure,
                       long elapsedNanos) {
        record(mode.name().toLowerCase(Locale.ROOT), outcome(outcome, failure), elapsedNanos);
    }

    /** Records one transaction under any mode and outcome label, for paths that do not answer with a TxOutcome. */
    public void record(String mode, String outcome, long elapsedNanos) {
        Meters forLabels = meters.computeIfAbsent(mode + '|' + outcome, key -> new Meters(
                Counter.builder("partita.transactions")
                        .description("Transactions answered by this node, by processing mode and outcome")
                        .tag("mode", mode).tag("outcome", outcome)
                        .register(registry),
                Timer.builder("partita.transaction.latency")
                        .description("Time from receiving a transaction to having its answer, journal included")
                        .tag("mode", mode).tag("outcome", outcome)
                        .serviceLevelObjectives(BUCKETS)
                        .register(registry)));
        forLabels.count().increment();
        forLabels.latency().record(elapsedNanos, TimeUnit.NANOSECONDS);
        total.increment();
        rate.record();
    }

    /** Records one batch this node answered, with its number of items. */
    public void recordBatch(int items) {
        batches.increment();
        batchItems.increment(items);
    }

    static String outcome(@Nullable TxOutcome outcome, @Nullable Throwable failure) {
        if (failure != null) {
            Throwable cause = GridFailures.unwrap(failure);
            if (cause instanceof Refusal refusal) {
                return refusal.isTransient() ? "unavailable"
                        : refusal.kind() == Refusal.Kind.NOT_FOUND ? "not_found" : "invalid";
            }
            return "error";
        }
        if (outcome == null) {
            return "error";
        }
        return switch (outcome.kind()) {
            case RECORDED -> outcome.entry().status() == TxStatus.APPLIED ? "applied" : "rejected";
            case REPLAYED -> "replayed";
            case CONFLICT -> "conflict";
            case NOT_FOUND -> "not_found";
            case PARTITION_LOST -> "unavailable";
        };
    }

    @Override
    public long transactions() {
        return total.sum();
    }

    @Override
    public double transactionsPerSecond() {
        return rate.perSecond();
    }

    private record Meters(Counter count, Timer latency) {
    }
}
