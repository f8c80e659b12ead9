package io.partita.account;

import org.awaitility.Awaitility;
import java.time.Duration;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.PartitaProperties;
import io.partita.transaction.PartitionedPath;
import io.partita.transaction.TransactionService;

import java.util.List;
import java.util.Map;

/** The account feature's package-private pieces, for tests of other packages. */
public final class TestAccess {

    private TestAccess() {
    }

    public static Object applyTransaction(String accountId, TxRequest request) {
        return ApplyTransactions.one(accountId, request);
    }

    /** The transactions processor for several accounts (each with its requests), as a batch sends it. */
    public static ApplyTransactions applyTransactions(Map<String, List<TxRequest>> requests) {
        return new ApplyTransactions(requests);
    }

    public static Object trimTails(Map<String, Long> through) {
        return new TrimTails(through, Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public static Object backupAppending(String accountId, Account before, Account after) {
        return new AccountBackup(Map.of(accountId, AccountDelta.appended(before, after)));
    }

    public static Object outcomes(List<TxOutcome> outcomes) {
        return new TxOutcomes(outcomes);
    }

    /**
     * Waits until neither the journal map nor any account's tail holds an entry recorded before {@code cutoff}: the
     * journal writer moved them from the tails to the map, and the map's retention, run here at once, deleted them, so
     * only the members' disks hold them (with the journal on disk).
     */
    public static void awaitOnlyOnDisk(HazelcastInstance member, long cutoff) {
        Awaitility.await("entries before " + cutoff + " only on disk").atMost(Duration.ofSeconds(60)).until(() -> {
            MemberLedger.of(member).sweep(Long.MAX_VALUE);
            AccountFeature.journal(member).removeAll(new ExpiredBefore(cutoff));
            boolean inTails = AccountFeature.accounts(member).entrySet().stream().anyMatch(entry ->
                    entry.getValue().tailEntries(entry.getKey()).stream().anyMatch(e -> e.at() < cutoff));
            boolean inMap = AccountFeature.journal(member).values().stream().anyMatch(record -> record.at() < cutoff);
            return !inTails && !inMap;
        });
    }

    /** The account and transaction services of a bare member, with the partitioned path, as a node wires them. */
    public record Services(AccountService accounts, TransactionService transactions) {

        public static Services on(HazelcastInstance member, PartitaProperties properties) {
            AccountService accounts = new AccountService(member, properties);
            return new Services(accounts,
                    new TransactionService(accounts, List.of(new PartitionedPath(member)), properties));
        }
    }

    /** The transaction service of a bare member with the partitioned path, for tests of other packages. */
    public static TransactionService transactions(HazelcastInstance member, PartitaProperties properties) {
        return Services.on(member, properties).transactions();
    }
}
