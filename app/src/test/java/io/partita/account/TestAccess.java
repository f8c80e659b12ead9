package io.partita.account;

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
