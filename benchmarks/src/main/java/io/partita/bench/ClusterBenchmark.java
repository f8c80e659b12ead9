package io.partita.bench;

import io.micronaut.context.ApplicationContext;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the benchmarks that start a {@link LocalCluster} in the forked JVM share, written once: their JMH settings,
 * their {@code accounts} and {@code members} parameters, and the trial's cluster with its accounts open. JMH's
 * annotations, parameters and set-up methods are inherited, so a subclass runs with these unless it says otherwise.
 * Throughput per second from 16 client threads, one fork with room for three members and the flags Hazelcast asks
 * for (the same as {@link Main}'s manifest), 2 warm-up and 3 measured iterations of 5 s.
 *
 * <p>Threads: JMH runs {@link #startCluster} on one thread before the trial's benchmark threads start; after that the
 * fields are only read, but for {@link #nextClient}, which each client's own set-up calls once.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
@Threads(16)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx3g",
        "--add-modules", "java.se",
        "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-opens", "java.base/java.lang=ALL-UNNAMED",
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens", "java.management/sun.management=ALL-UNNAMED",
        "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED"})
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
public abstract class ClusterBenchmark {

    /** Enough that no debit is ever refused: a refusal is still a recorded transaction, but not the common case. */
    static final long OPENING_BALANCE = 1_000_000_000L;

    @Param({"16", "100000"})
    public int accounts;

    @Param({"1", "3"})
    public int members;

    /** {@code partita.durability}: flush (a node's default) writes owner's and backup's disk on every write. */
    @Param({"flush", "memory"})
    public String durability;

    LocalCluster cluster;
    Books books;
    String[] accountIds;
    private final AtomicInteger clients = new AtomicInteger();

    /** {@code members} members (3 of them CP members from 3 up), and {@code accounts} accounts open on them. */
    @Setup(Level.Trial)
    public void startCluster() {
        cluster = LocalCluster.start(members, members >= 3 ? 3 : 0, Map.of("partita.durability", durability));
        books = Books.open(cluster.member(0), accounts, OPENING_BALANCE);
        accountIds = new String[accounts];
        for (int i = 0; i < accounts; i++) {
            accountIds[i] = Books.accountId(i);
        }
    }

    /** A number for the next client thread, from 0, for its own ids and its {@link #node}. */
    int nextClient() {
        return clients.getAndIncrement();
    }

    /** The node client {@code number} talks to: the clients are spread over the members in turn. */
    ApplicationContext node(int number) {
        return cluster.context(number % members);
    }
}
