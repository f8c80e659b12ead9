package io.partita.account;

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

    /** An account service on {@code member} with the partitioned path, for tests of other packages. */
    public static AccountService accountService(com.hazelcast.core.HazelcastInstance member,
                                                io.partita.cluster.PartitaProperties properties) {
        return new AccountService(member, List.of(new PartitionedPath(member)), properties);
    }
}
