package io.partita.bench;

import io.partita.node.ProcessingMode;
import io.partita.refusal.Refusal;
import io.partita.transfer.Transfer;
import io.partita.transfer.TransferDriver;
import io.partita.transfer.TransferFeature;
import io.partita.transfer.TransferState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.Collection;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The question: what does moving money between two accounts cost when the transfer holds both accounts' locks, and
 * what when it debits one partition and then credits the other, each step idempotent, with no lock at all?
 *
 * <p>Each call is one {@code POST /transfers} as the controller runs it ({@link TransferDriver}): a unique transfer
 * id, two distinct random accounts, 1 to 100. {@code LOCKED} takes both FencedLocks in order of account id and runs
 * both steps under them; {@code PARTITIONED} runs each step as the entry processor at its account's owner. Both record
 * the transfer in the {@code transfers} map and move it forward after each step, and both write each step's journal
 * entry. Parameters as in {@link LockVsPartitionBenchmark}: 16 hot or 100000 spread accounts, 1 or 3 members (Raft
 * with 3), 16 client threads, client {@code i} on node {@code i mod members}.
 *
 * <p>What to expect: {@code PARTITIONED} a few times ahead of {@code LOCKED}. A partitioned transfer is three writes in
 * sequence (its record, the debit, the credit, each with its journal entry and backup); the locked one adds two Raft
 * lock round trips each way and queues on hot accounts. A transfer blocks its client thread from start to answer (as
 * it blocks a thread of the node's blocking executor under HTTP); the members, their Raft nodes and the
 * transfer-recovery passes share this JVM. Measured figures are in benchmarks/README.md.
 *
 * <p>The trial's check: the total of all balances is unchanged (a transfer moves money, never makes it); every
 * transfer the benchmark posted is in the {@code transfers} map in the state it was answered with, none unfinished;
 * account versions and the journal count exactly the steps those transfers took (2 for a completed transfer).
 *
 * <p>How to run (a trial takes 40 to 50 s on 2 cores, the 4 combinations of 3 members about 3 minutes). Write to a new
 * file in {@code benchmarks/results/}:
 * <pre>
 * run=benchmarks/results/transfer-$(date +%Y%m%d-%H%M)
 * java -jar benchmarks/target/benchmarks.jar TransferBenchmark -p members=3 -rf json -rff $run.json
 * java -jar benchmarks/target/benchmarks.jar chart $run.json $run.png "Transfers per second, 3 members"
 * </pre>
 */
public class TransferBenchmark extends ClusterBenchmark {

    private static final int MAX_ATTEMPTS = 10;

    @Param({"LOCKED", "PARTITIONED"})
    public ProcessingMode mode;

    private final LongAdder completed = new LongAdder();
    private final LongAdder rejected = new LongAdder();

    @TearDown(Level.Trial)
    public void checkAndStop() {
        try {
            String accountsChecked = books.verify(cluster.member(0));
            checkTransfers();
            System.out.println(mode + " transfers, " + accounts + " accounts, " + members + " member(s): "
                    + completed.sum() + " completed, " + rejected.sum() + " rejected; " + accountsChecked);
        } finally {
            cluster.close();
        }
    }

    private void checkTransfers() {
        Collection<Transfer> recorded = TransferFeature.transfers(cluster.member(0)).values();
        long done = recorded.stream().filter(transfer -> transfer.state() == TransferState.COMPLETED).count();
        long refused = recorded.stream().filter(transfer -> transfer.state() == TransferState.REJECTED).count();
        if (done != completed.sum() || refused != rejected.sum() || recorded.size() != done + refused) {
            throw new IllegalStateException(String.format("The transfers map holds %,d records (%,d completed, %,d "
                            + "rejected); the benchmark was answered %,d completed and %,d rejected", recorded.size(),
                    done, refused, completed.sum(), rejected.sum()));
        }
    }

    /** One benchmark thread: a client of one node, with its own transfer ids. */
    @State(Scope.Thread)
    public static class Client {

        TransferDriver driver;
        private String prefix;
        private long sequence;

        @Setup(Level.Trial)
        public void connect(TransferBenchmark benchmark) {
            int index = benchmark.nextClient();
            driver = new TransferDriver(benchmark.node(index));
            prefix = "x" + index + "-";
        }

        String nextTxId() {
            return prefix + sequence++;
        }
    }

    @Benchmark
    public Transfer transfer(Client client) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int from = random.nextInt(accountIds.length);
        int to = (from + 1 + random.nextInt(accountIds.length - 1)) % accountIds.length;
        String txId = client.nextTxId();
        long amount = 1 + random.nextInt(100);
        for (int attempt = 1; ; attempt++) {
            try {
                TransferDriver.Answer answer = client.driver.transfer(txId, accountIds[from], accountIds[to], amount,
                        mode);
                count(answer, attempt > 1);
                return answer.transfer();
            } catch (Refusal e) {
                if (attempt == MAX_ATTEMPTS || !e.isTransient()) {
                    throw books.fail(e);
                }
                books.retried();
            }
        }
    }

    /**
     * Counts a transfer's answer once, and the transactions it recorded on accounts: a completed transfer debited
     * and credited (2); a transfer refused for funds recorded only its rejected debit (1); one refused by the
     * destination's balance limit debited, had its credit rejected and was refunded (3). None moves money in total.
     */
    private void count(TransferDriver.Answer answer, boolean retried) {
        Transfer transfer = answer.transfer();
        if (answer.replayed() && !retried) {
            throw books.fail(new IllegalStateException("Transfer " + transfer.txId() + " has a unique id, yet was "
                    + "answered as a replay"));
        }
        switch (transfer.state()) {
            case COMPLETED -> {
                completed.increment();
                books.recordSteps(2, 0);
            }
            case REJECTED -> {
                rejected.increment();
                books.recordSteps("INSUFFICIENT_FUNDS".equals(transfer.reason()) ? 1 : 3, 0);
            }
            default -> throw books.fail(new IllegalStateException("Transfer answered unfinished: " + transfer));
        }
    }
}
