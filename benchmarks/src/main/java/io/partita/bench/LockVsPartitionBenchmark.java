package io.partita.bench;

import io.partita.account.TxRequest;
import io.partita.account.TxType;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The question: how many debits and credits per second does a cluster apply when every message takes a lock on its
 * account, and how many when every message is sent to the one thread that owns its account's partition?
 *
 * <p>Each call posts one debit or credit (1 to 100, chosen at random) with a unique transaction id on a random
 * account, through the same service call the HTTP controller makes, and waits as the {@link Posting} says:
 * <ul>
 *   <li>{@code LOCKED}: the app's locked path (FencedLock per account, read, decide, fenced write, unlock);</li>
 *   <li>{@code PARTITIONED}: the app's entry processor at the partition owner, waiting for each answer;</li>
 *   <li>{@code PARTITIONED_ASYNC}: the same, 16 calls in flight per thread (256 in all);</li>
 *   <li>{@code IMAP_LOCK}: reference, Hazelcast's {@code IMap.lock} around read, decide, set;</li>
 *   <li>{@code RAW_SET}: reference, one {@code IMap.set} with its backup: the floor cost of a replicated write;</li>
 *   <li>{@code EP_NOOP}: reference, an entry processor that reads the account and writes nothing
 *       ({@link ReadAccount}): the floor cost of reaching the owner.</li>
 * </ul>
 * Every path but the references also writes the journal entry before it answers, as the app does. {@code accounts}
 * 16 is a hot set (16 threads on 16 accounts: locks are contended), 100000 a spread one. {@code members} are real
 * Partita nodes in this JVM (see {@link LocalCluster}); with 3, the CP Subsystem runs Raft on all 3, with 1 it runs
 * in unsafe mode. Client thread {@code i} talks to node {@code i mod members}, as clients behind a load balancer.
 *
 * <p>What to expect: the partitioned paths well ahead of the locked one, which pays two Raft commits (lock, unlock)
 * and more grid calls per transaction and, on hot accounts, queues on the locks; {@code PARTITIONED} below
 * {@code RAW_SET}, since it rewrites the account and writes a journal entry as well; {@code EP_NOOP} far above
 * every path. This is one host's view: the 16 client threads, the members' partition and I/O threads, the Raft nodes
 * and the nodes' blocking executors (which run the locked path, as they do for HTTP) all share this JVM's cores, and
 * there is no network latency to wait on, so only the ratios within one run mean much. Measured figures, with the
 * machine and the run they come from, are in benchmarks/README.md.
 *
 * <p>Each trial checks its outcome before JMH reports it ({@link Books#verify}): balances, versions and journal must
 * show every transaction the benchmark saw applied, exactly once; otherwise the teardown throws and JMH reports a
 * failure instead of a number.
 *
 * <p>How to run. A trial (one combination) starts its own cluster and takes 40 to 50 s with the defaults below on 2
 * cores, so the 12 combinations of 3 members take about 10 minutes; {@code -p} narrows the set, {@code -f},
 * {@code -wi}, {@code -i}, {@code -r} lengthen it. Write to a new file in {@code benchmarks/results/}:
 * <pre>
 * mvn -B -DskipTests package
 * run=benchmarks/results/lock-vs-partition-$(date +%Y%m%d-%H%M)
 * java -jar benchmarks/target/benchmarks.jar LockVsPartition -p members=3 -rf json -rff $run.json
 * java -jar benchmarks/target/benchmarks.jar chart $run.json $run.png "Debits and credits per second, 3 members"
 * </pre>
 * The nodes run as shipped: no JVM flag but a heap size and the module access a node's jar manifest grants (the
 * fork's {@code jvmArgsAppend} below). Each node hands the continuations of its grid calls to its own pool
 * ({@code io.partita.node.Continuations}), not to the JDK's common pool.
 */
public class LockVsPartitionBenchmark extends ClusterBenchmark {

    @Param({"LOCKED", "PARTITIONED", "PARTITIONED_ASYNC", "IMAP_LOCK", "RAW_SET", "EP_NOOP"})
    public Posting mode;

    @TearDown(Level.Trial)
    public void checkAndStop() {
        try {
            System.out.println(mode + ", " + accounts + " accounts, " + members + " member(s): "
                    + books.verify(cluster.member(0)));
        } finally {
            cluster.close();
        }
    }

    /**
     * One benchmark thread: a client with its own poster on its own node, and its own transaction ids. Its
     * {@code completions} counter (a secondary result, ops/s) counts answered calls: for the waiting modes the same as
     * the primary figure, for {@code PARTITIONED_ASYNC} the calls answered within the iteration, which is the figure
     * to compare.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Client {

        Posting.Poster poster;
        private String prefix;
        private long sequence;
        private long answered;

        @Setup(Level.Trial)
        public void connect(LockVsPartitionBenchmark benchmark) {
            int index = benchmark.nextClient();
            poster = benchmark.mode.create(benchmark.node(index), benchmark.books);
            prefix = "t" + index + "-";
        }

        @Setup(Level.Iteration)
        public void startCounting() {
            answered = 0;
            poster.resetCompletions(true);
        }

        /** Answers everything in flight before an iteration ends, and before the trial's check. */
        @TearDown(Level.Iteration)
        public void drain() {
            poster.resetCompletions(false);
            poster.drain();
        }

        /** Calls answered in this iteration. */
        public long completions() {
            return poster instanceof Posting.Windowed ? poster.completions() : answered;
        }

        String nextTxId() {
            return prefix + sequence++;
        }
    }

    @Benchmark
    public Object post(Client client) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String accountId = accountIds[random.nextInt(accountIds.length)];
        TxRequest request = TxRequest.of(client.nextTxId(), random.nextBoolean() ? TxType.DEBIT : TxType.CREDIT,
                1 + random.nextInt(100), System.currentTimeMillis());
        Object answer = client.poster.post(accountId, request);
        client.answered++;
        return answer;
    }
}
