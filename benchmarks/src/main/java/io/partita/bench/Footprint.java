package io.partita.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.account.Account;
import io.partita.account.ApplyTransaction;
import io.partita.account.JournalEntry;
import io.partita.account.JournalKey;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxType;
import io.partita.cluster.Maps;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What does one account, and one retained journal entry, cost on the heap of the member that owns it? A single member
 * (no backups to double-count) is filled in two steps and the live heap is read after full collections each time:
 * accounts just opened, then after {@code T} transactions per account (each adds a journal entry, and the account's
 * recent list fills up to its bound). Hazelcast's own entry cost estimate ({@code getOwnedEntryMemoryCost}) is shown
 * beside the heap figure.
 *
 * <p>Run: {@code java -Xmx4g -cp benchmarks/target/benchmarks.jar io.partita.bench.Footprint [accounts] [txPerAccount]}
 */
public final class Footprint {

    public static void main(String[] args) throws Exception {
        int accounts = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int perAccount = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        LocalCluster cluster = LocalCluster.start(1, 0, Map.of());
        HazelcastInstance member = cluster.member(0);
        IMap<String, Account> map = Maps.accounts(member);
        IMap<JournalKey, JournalEntry> journal = Maps.journal(member);

        long empty = liveHeap();
        for (int i = 0; i < accounts; i++) {
            map.set(id(i), Account.open(id(i), 1_000_000, 0));
        }
        long opened = liveHeap();
        for (int t = 0; t < perAccount; t++) {
            List<CompletableFuture<TxOutcome>> round = new ArrayList<>(accounts);
            for (int i = 0; i < accounts; i++) {
                TxRequest request = TxRequest.of("tx-" + t + "-" + i, t % 2 == 0 ? TxType.DEBIT : TxType.CREDIT,
                        100 + t, 1_700_000_000_000L + t);
                round.add(map.submitToKey(id(i), new ApplyTransaction(request))
                        .thenCompose(outcome -> journal.setAsync(outcome.entry().key(), outcome.entry())
                                .thenApply(ignored -> outcome))
                        .toCompletableFuture());
            }
            round.forEach(CompletableFuture::join);
        }
        long filled = liveHeap();
        long entries = (long) accounts * perAccount;
        if (journal.size() != entries) {
            throw new IllegalStateException("journal holds " + journal.size() + ", expected " + entries);
        }

        double perOpenAccount = (opened - empty) / (double) accounts;
        long accountCost = map.getLocalMapStats().getOwnedEntryMemoryCost();
        long journalCost = journal.getLocalMapStats().getOwnedEntryMemoryCost();
        System.out.printf("%,d accounts, %,d transactions each (recent list bound %d)%n", accounts, perAccount,
                io.partita.account.Ledger.RECENT);
        System.out.printf("heap per account just opened:           %,.0f bytes%n", perOpenAccount);
        System.out.printf("heap per account + its %d entries:        %,.0f bytes%n", perAccount,
                (filled - empty) / (double) accounts);
        System.out.printf("Hazelcast cost per account (recent full): %,.0f bytes%n", accountCost / (double) accounts);
        System.out.printf("Hazelcast cost per journal entry:        %,.0f bytes%n", journalCost / (double) entries);
        System.out.printf("heap per journal entry, if accounts cost what Hazelcast says: %,.0f bytes%n",
                (filled - empty - accountCost) / (double) entries);
        cluster.close();
        System.exit(0);
    }

    private static String id(int i) {
        return "acc-" + i;
    }

    private static long liveHeap() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
