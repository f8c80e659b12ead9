package io.partita.bench.store;

import io.partita.store.StoredEntry;
import org.openjdk.jmh.annotations.Benchmark;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The question: which embedded engine should hold the journal on disk, RocksDB or H2's MVStore, for what the journal
 * does: appends of one partition's batch of 128 entries (8 on each of 16 accounts), acknowledged once written to the
 * OS ({@code FLUSH}) or synced ({@code FSYNC}, one sync per committer round for every writer waiting); an account's
 * newest page of 50; and the exactly-once lookup of a txId that is there ({@code findHit}, a retry) and one that is not
 * ({@code findMiss}, every new transaction). Both engines sit behind one facade ({@link JournalEngine}) with the same
 * keys and the same group committer.
 *
 * <p>What runs where: {@code append} runs on 4 threads, like a member's partition threads handing batches over, each
 * waiting for its batch's acknowledgement (so a round covers at most 4 batches); the reads on one thread. Every trial
 * starts with a fresh store in a temporary directory, loaded with 64 entries on each of 2,710 accounts (173,440).
 *
 * <p>The trial's check: the store holds exactly the entries loaded and appended (counted by exporting every
 * partition), and the newest page of an account starts at its newest seq; it fails loudly otherwise.
 *
 * <p>How to run (about 8 minutes on 2 cores; a short run: 1 fork, 2 x 3 s of warm-up, 3 x 5 s measured):
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar JournalStoreBenchmark -rf json \
 *     -rff benchmarks/results/store-$(date +%Y%m%d).json
 * </pre>
 * Expect RocksDB ahead on appends (an LSM tree appends to its log and memtable; MVStore rewrites the B-tree pages a
 * round touched), and FSYNC well below FLUSH on appends with the reads unchanged. Figures and what else was measured
 * (memory, disk, retention, export) are in {@code benchmarks/results/NOTES.md}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 5)
public class JournalStoreBenchmark {

    static final int LOADED_PER_PARTITION = 10;
    static final int LOADED_SEQS = 64;
    static final int BATCH_ACCOUNTS = 16;
    static final int BATCH_PER_ACCOUNT = 8;
    private static final int PAGE = 50;

    @Param({"ROCKSDB", "MVSTORE"})
    public JournalEngine.Engine engine;

    @Param({"FLUSH", "FSYNC"})
    public String durability;

    private Path directory;
    private JournalEngine journal;
    private final LongAdder appended = new LongAdder();

    @Setup(Level.Trial)
    public void load() throws IOException {
        directory = Files.createTempDirectory("journal-bench-");
        journal = engine.open(directory, "FSYNC".equals(durability));
        for (int partition = 0; partition < Workload.PARTITIONS; partition++) {
            for (int seq = 0; seq < LOADED_SEQS; seq += BATCH_PER_ACCOUNT) {
                journal.append(partition, Workload.batch(partition, LOADED_PER_PARTITION, BATCH_PER_ACCOUNT, seq, 1))
                        .join();
            }
        }
    }

    @TearDown(Level.Trial)
    public void checkAndClose() throws IOException {
        try {
            long expected = (long) Workload.PARTITIONS * LOADED_PER_PARTITION * LOADED_SEQS
                    + appended.sum() * BATCH_ACCOUNTS * BATCH_PER_ACCOUNT;
            long held = 0;
            for (int partition = 0; partition < Workload.PARTITIONS; partition++) {
                held += journal.export(partition, chunk -> { });
            }
            if (held != expected) {
                throw new IllegalStateException(engine + " holds " + held + " entries, expected " + expected);
            }
            List<StoredEntry> newest = journal.newest(5, Workload.account(5), PAGE);
            if (newest.size() != PAGE || newest.get(0).seq() < LOADED_SEQS - 1) {
                throw new IllegalStateException(engine + " paged wrongly: " + newest.get(0));
            }
            System.out.printf("%n%s %s: %,d entries checked, %,d B on disk; %s%n", engine, durability, held,
                    journal.diskBytes(), journal.memory());
        } finally {
            journal.close();
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** One writer: a partition thread of its own set of partitions, writing new seqs on the accounts there. */
    @State(Scope.Thread)
    public static class Writer {
        int thread;
        int threads;
        long round;

        @Setup(Level.Trial)
        public void identify(ThreadParams params) {
            thread = params.getThreadIndex();
            threads = params.getThreadCount();
        }
    }

    @Benchmark
    @Threads(4)
    public void append(Writer writer) {
        // Partitions thread, thread + threads, ...: no two writers share an account, so seqs never collide.
        int slots = Workload.PARTITIONS / writer.threads;
        long round = writer.round++;
        int partition = writer.thread + (int) (round % slots) * writer.threads;
        long firstSeq = 1_000 + (round / slots) * BATCH_PER_ACCOUNT;
        journal.append(partition, Workload.batch(partition, BATCH_ACCOUNTS, BATCH_PER_ACCOUNT, firstSeq, 2)).join();
        appended.increment();
    }

    @Benchmark
    @Threads(1)
    public List<StoredEntry> newestPage() {
        int account = ThreadLocalRandom.current().nextInt(Workload.PARTITIONS * LOADED_PER_PARTITION);
        return journal.newest(Workload.partitionOf(account), Workload.account(account), PAGE);
    }

    @Benchmark
    @Threads(1)
    public boolean findHit() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int account = random.nextInt(Workload.PARTITIONS * LOADED_PER_PARTITION);
        boolean found = journal.contains(Workload.partitionOf(account), Workload.account(account),
                Workload.txId(account, random.nextInt(LOADED_SEQS)));
        if (!found) {
            throw new IllegalStateException("a loaded txId is missing");
        }
        return found;
    }

    @Benchmark
    @Threads(1)
    public boolean findMiss() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int account = random.nextInt(Workload.PARTITIONS * LOADED_PER_PARTITION);
        boolean found = journal.contains(Workload.partitionOf(account), Workload.account(account),
                "new-" + random.nextLong());
        if (found) {
            throw new IllegalStateException("a txId never written was found");
        }
        return found;
    }
}
