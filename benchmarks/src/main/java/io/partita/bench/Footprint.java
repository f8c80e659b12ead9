package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.AccountFeature;
import io.partita.account.AccountService;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.JournalRecord;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.account.TxType;
import io.partita.node.MemberDisk;
import io.partita.transaction.TransactionService;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * What does one account, and one retained journal entry, cost on the heap of the member that owns it? Each figure
 * is a difference of live heap (read after full collections) between two states of one member, so that neither
 * depends on the other or on Hazelcast's own estimate ({@code getOwnedEntryMemoryCost}, which Hazelcast does not keep
 * for maps that hold objects):
 * <ol>
 *   <li>base: the member started and every partition holding a warm-up account with one journaled transaction, so
 *       that the per-partition structures of both maps exist before anything is counted;</li>
 *   <li>opened: {@code N} accounts opened; the difference over N is an account just opened;</li>
 *   <li>half: {@code T/2} transactions on each account through {@code TransactionService.apply}, as HTTP runs them, and
 *       the journal writer caught up (no entry left in a tail);</li>
 *   <li>filled: the other {@code T/2}; the difference from "half" over its entries is a journal entry (the accounts
 *       do not grow between the two: their tails are empty at both);</li>
 *   <li>no journal: the journal map destroyed and created again empty, as it was at base; "filled" minus this over all
 *       its entries is a journal entry again, and this minus base over N is an account after its transactions;</li>
 *   <li>tails: every account given two more entries in its tail, as the partitioned path appends them (the journal
 *       writer, told not to sweep, leaves them there): minus base over N, an account with a tail of two, about what an
 *       account under load holds between the writer's flushes.</li>
 * </ol>
 * One member: no backups to double-count. The grid is checked before any figure is printed: every account holds the
 * expected balance and version, and the journal one entry per transaction; a failed check exits 1.
 *
 * <p>What runs where: one member and its Micronaut context in this JVM; the transactions are issued from this thread
 * in windows of {@link #IN_FLIGHT} and completed on the member's partition and continuation threads; its journal writer
 * runs on its own thread.
 *
 * <p>Run: {@code java -Xmx4g -jar benchmarks/target/benchmarks.jar footprint [accounts] [transactionsPerAccount]},
 * 20,000 and 10 by default (about a minute on 2 cores).
 */
public final class Footprint {

    private static final long OPENING_BALANCE = 1_000_000;
    private static final int IN_FLIGHT = 5_000;
    private static final int TAIL = 2;

    private final int accounts;
    private final int perAccount;
    private final boolean onDisk;
    /** The transactions' time: now, so that neither the journal map's window nor the disk's retention is past. */
    private final long startedAt = System.currentTimeMillis();
    private final LocalCluster cluster;
    private final AccountService service;
    private final TransactionService transactions;
    private final IMap<String, Account> accountMap;
    private long expectedDelta;

    private Footprint(int accounts, int perAccount, boolean onDisk, LocalCluster cluster) {
        this.accounts = accounts;
        this.perAccount = perAccount;
        this.onDisk = onDisk;
        this.cluster = cluster;
        this.service = cluster.bean(0, AccountService.class);
        this.transactions = cluster.bean(0, TransactionService.class);
        this.accountMap = AccountFeature.accounts(cluster.member(0));
    }

    public static void main(String[] args) {
        int exitCode = 1;
        LocalCluster cluster = null;
        try {
            int accounts = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
            int perAccount = args.length > 1 ? Integer.parseInt(args[1]) : 10;
            String durability = args.length > 2 ? args[2] : "flush";
            if (accounts < 1_000 || perAccount < 2 || perAccount % 2 != 0
                    || !List.of("memory", "flush").contains(durability)) {
                System.err.println("usage: footprint [accounts >= 1000] [transactionsPerAccount, even, >= 2] "
                        + "[memory|flush]");
                System.exit(2);
            }
            boolean onDisk = durability.equals("flush");
            // No sweep: the last step leaves entries in the tails on purpose. On disk, the journal map keeps what a
            // node's does (its last seconds), not the whole retention the other benchmarks keep there for their checks.
            cluster = LocalCluster.start(1, 0, onDisk
                    ? Map.of("partita.journal.sweep-interval", "1h", "partita.durability", "flush",
                            "partita.journal.memory-retention", "5s")
                    : Map.of("partita.journal.sweep-interval", "1h", "partita.durability", "memory"));
            new Footprint(accounts, perAccount, onDisk, cluster).measure();
            exitCode = 0;
        } catch (Throwable e) {
            System.err.println("FAILED: " + e);
            e.printStackTrace();
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
        // Micronaut and Hazelcast leave non-daemon threads behind; without this a failed run would never end.
        System.exit(exitCode);
    }

    private void measure() throws InterruptedException {
        HazelcastInstance member = cluster.member(0);
        IMap<JournalKey, JournalRecord> journal = AccountFeature.journal(member);
        int warm = warmPartitions(member);
        settle(member);
        long baseHeap = liveHeap();

        inWindows(accounts, i -> service.open(id(i), OPENING_BALANCE, 0).toCompletableFuture());
        long openedHeap = liveHeap();

        int firstHalf = perAccount / 2;
        transact(0, firstHalf);
        settle(member);
        long halfHeap = liveHeap();
        long halfEntries = (long) accounts * firstHalf;
        transact(firstHalf, perAccount);
        settle(member);
        long filledHeap = liveHeap();
        long entries = (long) accounts * perAccount;
        String checked = check(member, journal, warm, entries);

        journal.destroy();
        // As at base: an empty journal with its proxy (every member creates it when it starts).
        AccountFeature.journal(member).size();
        long noJournalHeap = liveHeap();

        withTails(perAccount);
        long tailsHeap = liveHeap();

        System.out.printf(Locale.ROOT, "1 member, durability %s (%s), %,d accounts, %,d transactions each, %,d journal "
                + "entries; heap %d MiB max%n", onDisk ? "flush" : "memory", onDisk
                ? "the journal on disk, its map keeping the last 5 s" : "the journal map keeping the whole retention",
                accounts, perAccount, entries, Runtime.getRuntime().maxMemory() >> 20);
        System.out.println(checked);
        System.out.println("| what | heap (bytes) |");
        System.out.println("|---|---:|");
        row("an account just opened", (openedHeap - baseHeap) / (double) accounts);
        row("an account after " + perAccount + " transactions, all journaled (empty tail)",
                (noJournalHeap - baseHeap) / (double) accounts);
        row("an account with a tail of " + TAIL + " entries", (tailsHeap - baseHeap) / (double) accounts);
        row("a retained journal entry (transactions " + (firstHalf + 1) + "-" + perAccount + " minus 1-" + firstHalf
                + ")", (filledHeap - halfHeap) / (double) (entries - halfEntries));
        row("a retained journal entry (journal destroyed)", (filledHeap - noJournalHeap) / (double) entries);
        System.out.printf(Locale.ROOT,
                "live heap MiB: base %.1f, opened %.1f, half %.1f, filled %.1f, no journal %.1f, tails %.1f%n",
                mib(baseHeap), mib(openedHeap), mib(halfHeap), mib(filledHeap), mib(noJournalHeap), mib(tailsHeap));
    }

    private static void row(String what, double heap) {
        System.out.printf(Locale.ROOT, "| %s | %,.0f |%n", what, heap);
    }

    private static double mib(long bytes) {
        return bytes / (1024.0 * 1024.0);
    }

    /**
     * Opens one account in every partition ("w-" ids, not counted) with one transaction, so that the per-partition
     * record stores of both maps exist in the base state and are not charged to the measured accounts.
     *
     * @return how many warm-up accounts were opened
     */
    private int warmPartitions(HazelcastInstance member) {
        int partitions = member.getPartitionService().getPartitions().size();
        Set<Integer> covered = new HashSet<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; covered.size() < partitions; i++) {
            String id = "w-" + i;
            if (covered.add(member.getPartitionService().getPartition(id).getPartitionId())) {
                ids.add(id);
            }
        }
        inWindows(ids.size(), i -> service.open(ids.get(i), OPENING_BALANCE, 0).toCompletableFuture());
        inWindows(ids.size(), i -> transactions.apply(ids.get(i), TxRequest.of("warm-" + i, TxType.CREDIT, 1, 1L), null)
                .toCompletableFuture()
                .thenApply(Footprint::applied));
        return ids.size();
    }

    /**
     * Waits until what was posted has settled where it is kept: every tail journaled and, on disk, the journal map's
     * window past, so that the map holds nothing of it.
     */
    private void settle(HazelcastInstance member) throws InterruptedException {
        Books.awaitJournaled(member);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (onDisk && !AccountFeature.journal(member).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The journal map still holds " + AccountFeature.journal(member).size()
                        + " entries a minute after its 5 s window");
            }
            Thread.sleep(100);
        }
    }

    /** Every journal entry on the member's disk, partition by partition. */
    private static long entriesOnDisk(HazelcastInstance member) {
        int partitions = member.getPartitionService().getPartitions().size();
        return MemberDisk.of(member).read(store -> {
            long count = 0;
            for (int partition = 0; partition < partitions; partition++) {
                count += store.export(partition, 4_096, chunk -> { });
            }
            return count;
        }, -1L);
    }

    /** Transactions {@code from} (inclusive) to {@code to} on every account, one round of all accounts at a time. */
    private void transact(int from, int to) {
        for (int t = from; t < to; t++) {
            TxType type = t % 2 == 0 ? TxType.DEBIT : TxType.CREDIT;
            long amount = 100 + t;
            long at = startedAt + t;
            String prefix = "tx-" + t + "-";
            inWindows(accounts, i -> transactions.apply(id(i), TxRequest.of(prefix + i, type, amount, at), null)
                    .toCompletableFuture()
                    .thenApply(Footprint::applied));
            expectedDelta += type.delta(amount) * (long) accounts;
        }
    }

    private static TxOutcome applied(TxOutcome outcome) {
        if (outcome.kind() != TxOutcome.Kind.RECORDED || outcome.entry().status() != TxStatus.APPLIED) {
            throw new IllegalStateException("Unexpected " + outcome);
        }
        return outcome;
    }

    /** Runs {@code count} calls, at most {@link #IN_FLIGHT} at a time; throws the first failure. */
    private static void inWindows(int count, IntFunction<CompletableFuture<?>> call) {
        for (int start = 0; start < count; start += IN_FLIGHT) {
            List<CompletableFuture<?>> window = new ArrayList<>(IN_FLIGHT);
            for (int i = start; i < Math.min(count, start + IN_FLIGHT); i++) {
                window.add(call.apply(i));
            }
            window.forEach(CompletableFuture::join);
        }
    }

    /** The state measured is the state meant: throws unless every account and the journal hold what was posted. */
    private String check(HazelcastInstance member, IMap<JournalKey, JournalRecord> journal, int warm,
                         long entries) {
        Map<String, Account> all = accountMap.getAll(accountMap.keySet());
        List<Account> measured = all.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith("acc-"))
                .map(Map.Entry::getValue)
                .toList();
        long sum = measured.stream().mapToLong(Account::balance).sum();
        long expectedSum = OPENING_BALANCE * accounts + expectedDelta;
        long wrongVersion = measured.stream().filter(account -> account.version() != perAccount).count();
        long withTail = measured.stream().filter(account -> account.tail().length > 0).count();
        long journaled = (onDisk ? entriesOnDisk(member) : journal.size()) - warm;
        String figures = String.format(Locale.ROOT, "accounts %,d (+%,d warm-up), balances %,d, expected %,d; "
                        + "%,d with a version other than %d, %,d with entries left in the tail; journal %,d, "
                        + "expected %,d", measured.size(), all.size() - measured.size(), sum, expectedSum,
                wrongVersion, perAccount, withTail, journaled, entries);
        if (measured.size() != accounts || all.size() - measured.size() != warm || sum != expectedSum
                || wrongVersion != 0 || withTail != 0 || journaled != entries) {
            throw new IllegalStateException("The member does not hold what was posted: " + figures);
        }
        return "checked: " + figures;
    }

    /**
     * Gives every measured account {@link #TAIL} more entries in its tail, as the partitioned path appends them, and
     * writes it back in place: the journal writer does not sweep in this run, so they stay there.
     */
    private void withTails(int seqBase) {
        inWindows(accounts, i -> {
            String id = id(i);
            return accountMap.getAsync(id).toCompletableFuture().thenCompose(account -> {
                Account next = account;
                for (int t = 0; t < TAIL; t++) {
                    long seq = next.version() + 1;
                    next = next.record(new JournalEntry(id, "tail-" + seqBase + "-" + t, TxType.CREDIT, 1,
                            TxStatus.APPLIED, next.balance() + 1, 1_700_000_000_000L + seq, seq, null));
                }
                return accountMap.setAsync(id, next).toCompletableFuture();
            });
        });
    }

    private static String id(int i) {
        return "acc-" + i;
    }

    /**
     * Used heap after full collections: the least of several readings, taken until two in a row agree within 16 KiB
     * (the member's own threads allocate a little between them).
     */
    private static long liveHeap() throws InterruptedException {
        long previous = Long.MAX_VALUE;
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 12; i++) {
            System.gc();
            Thread.sleep(200);
            long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            least = Math.min(least, used);
            if (i >= 2 && Math.abs(previous - used) < 16 * 1024) {
                break;
            }
            previous = used;
        }
        return least;
    }
}
