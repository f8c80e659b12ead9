package io.partita.bench.store;

import io.partita.store.StoredEntry;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * What the JMH benchmark does not measure: one engine's heap, native memory and disk for a journal of N entries, the
 * bulk load rate, the retention delete of half of them, and the export of one partition into a second store (its
 * migration to a new owner). One engine per run, so that the process's resident memory is that engine's.
 *
 * <p>{@code java -Xmx1g -jar benchmarks/target/benchmarks.jar store ROCKSDB|MVSTORE ENTRIES [FLUSH|FSYNC [ACCOUNTS]]}
 *
 * <p>The load: ACCOUNTS accounts (10,000 by default; account n in partition n mod 271), ENTRIES / ACCOUNTS entries
 * each (a multiple of 8), written in
 * per-partition batches of 128 (8 entries on each of 16 accounts), 64 batches in flight, each entry a millisecond
 * apart. The checks, before any figure is printed: every partition's export counts exactly what was loaded, a sample of
 * txIds is found and unknown ones are not, the retention deletes exactly the older half, and the imported partition
 * reads back page for page.
 */
public final class StoreFootprint {

    private static final int DEFAULT_ACCOUNTS = 10_000;
    private static final int IN_FLIGHT = 64;

    private StoreFootprint() {
    }

    public static void main(String[] args) throws Exception {
        JournalEngine.Engine engine = JournalEngine.Engine.valueOf(args[0]);
        long total = Long.parseLong(args[1]);
        boolean fsync = args.length > 2 && "FSYNC".equals(args[2]);
        int accounts = args.length > 3 ? Integer.parseInt(args[3]) : DEFAULT_ACCOUNTS;
        if (accounts < 1 || total % accounts != 0 || total / accounts % 8 != 0) {
            throw new IllegalArgumentException("ENTRIES must be ACCOUNTS times a multiple of 8");
        }
        int perAccount = (int) (total / accounts);
        Path directory = Files.createTempDirectory("store-footprint-");
        try {
            run(engine, directory, accounts, perAccount, fsync);
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void run(JournalEngine.Engine engine, Path directory, int accounts, int perAccount,
                            boolean fsync) {
        long heapBefore = usedHeapAfterGc();
        long rssBefore = residentBytes();
        long loaded = 0;
        long started = System.nanoTime();
        try (JournalEngine journal = engine.open(directory.resolve("main"), fsync)) {
            Deque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
            long at = 0;
            int accountsPerPartition = (accounts + Workload.PARTITIONS - 1) / Workload.PARTITIONS;
            for (int seq = 0; seq < perAccount; seq += 8) {
                for (int partition = 0; partition < Workload.PARTITIONS; partition++) {
                    for (int k = 0; k < accountsPerPartition; k += 16) {
                        List<StoredEntry> batch = new ArrayList<>(128);
                        for (int j = k; j < Math.min(k + 16, accountsPerPartition); j++) {
                            int account = partition + j * Workload.PARTITIONS;
                            if (account >= accounts) {
                                continue;
                            }
                            for (int i = 0; i < 8; i++) {
                                batch.add(Workload.entry(account, seq + i, at++));
                            }
                        }
                        if (batch.isEmpty()) {
                            continue;
                        }
                        loaded += batch.size();
                        inFlight.add(journal.append(partition, batch));
                        if (inFlight.size() == IN_FLIGHT) {
                            inFlight.poll().join();
                        }
                    }
                }
            }
            inFlight.forEach(CompletableFuture::join);
            double loadSeconds = (System.nanoTime() - started) / 1e9;

            long held = countAll(journal);
            check(held == loaded, "holds " + held + " of " + loaded);
            for (int account = 0; account < accounts; account += 97) {
                int partition = Workload.partitionOf(account);
                check(journal.contains(partition, Workload.account(account), Workload.txId(account, perAccount - 1)),
                        "a txId is missing");
                check(!journal.contains(partition, Workload.account(account), "never-" + account), "a txId is made up");
            }
            long heapLoaded = usedHeapAfterGc();
            long rssLoaded = residentBytes();
            long disk = journal.diskBytes();
            String memory = journal.memory();

            // A pass with nothing to delete: what the retention costs a store before anything expires, once a minute.
            long idleStarted = System.nanoTime();
            check(journal.expireBefore(0) == 0, "the retention deleted an entry recorded after its cutoff");
            double idleSeconds = (System.nanoTime() - idleStarted) / 1e9;
            long retentionStarted = System.nanoTime();
            long deleted = journal.expireBefore(at / 2);
            double retentionSeconds = (System.nanoTime() - retentionStarted) / 1e9;
            check(deleted == at / 2, "the retention deleted " + deleted + " of " + at / 2);
            check(countAll(journal) == loaded - deleted, "entries left after the retention");

            long exportStarted = System.nanoTime();
            long exported;
            try (JournalEngine copy = engine.open(directory.resolve("copy"), fsync)) {
                List<CompletableFuture<Void>> imports = new ArrayList<>();
                exported = journal.export(42, chunk -> imports.add(copy.append(42, chunk)));
                imports.forEach(CompletableFuture::join);
                check(copy.newest(42, Workload.account(42), 1_000).equals(journal.newest(42, Workload.account(42),
                        1_000)), "the imported partition reads differently");
            }
            double exportSeconds = (System.nanoTime() - exportStarted) / 1e9;

            System.out.printf("engine %s, %s, %,d entries (%d accounts x %d, %d B payload), checked%n", engine,
                    fsync ? "FSYNC" : "FLUSH", loaded, accounts, perAccount, Workload.PAYLOAD_BYTES);
            System.out.printf("load: %.1f s, %,.0f entries/s (batches of 128, %d in flight)%n", loadSeconds,
                    loaded / loadSeconds, IN_FLIGHT);
            System.out.printf("heap after GC: %,d B more than before the store opened (%.1f B per entry)%n",
                    heapLoaded - heapBefore, (heapLoaded - heapBefore) / (double) loaded);
            System.out.printf("resident memory: %,d B more (%.1f MiB)%n", rssLoaded - rssBefore,
                    (rssLoaded - rssBefore) / 1048576.0);
            System.out.printf("engine memory: %s%n", memory);
            System.out.printf("disk: %,d B (%.1f B per entry)%n", disk, disk / (double) loaded);
            System.out.printf("retention: a pass with nothing to delete in %.2f s; deleted the older %,d in %.2f s%n",
                    idleSeconds, deleted, retentionSeconds);
            System.out.printf("export + import of partition 42: %,d entries in %.2f s%n", exported, exportSeconds);
        }
    }

    private static long countAll(JournalEngine journal) {
        long count = 0;
        for (int partition = 0; partition < Workload.PARTITIONS; partition++) {
            count += journal.export(partition, chunk -> { });
        }
        return count;
    }

    private static void check(boolean holds, String what) {
        if (!holds) {
            System.err.println("CHECK FAILED: " + what);
            System.exit(1);
        }
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The process's resident set, from /proc/self/status (Linux). */
    private static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }
}
