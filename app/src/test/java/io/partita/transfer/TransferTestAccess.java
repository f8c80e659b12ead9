package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import io.partita.account.AccountService;
import io.partita.node.PartitaProperties;
import io.partita.transaction.TransactionPath;
import io.partita.transaction.TransactionService;

import java.util.List;

/** What tests of other packages need of the transfer feature's package-private parts. */
public final class TransferTestAccess {

    private TransferTestAccess() {
    }

    /** What a recovery did: the record's state afterwards, and what it threw (or null). */
    public record Recovery(TransferState state, RuntimeException failure) {
    }

    /**
     * Records a transfer of {@code amount} from {@code from} to {@code to} as if its coordinator had debited the source
     * and died, then runs recovery on it from {@code member} through {@code path} (the partitioned one), as a recovery
     * pass would.
     */
    public static Recovery recoverDebited(HazelcastInstance member, AccountService accounts, TransactionPath path,
                                          PartitaProperties properties, String txId, String from, String to,
                                          long amount) {
        Transfer debited = Transfer.begin(new TransferRequest(txId, from, to, amount), 1L, "gone").debited(0);
        TransferFeature.transfers(member).set(debited.key(), debited);
        TransferService service = new TransferService(member, accounts,
                new TransactionService(accounts, List.of(path), properties), null, List.of(path), properties);
        RuntimeException failure = null;
        try {
            service.recover(debited.key());
        } catch (RuntimeException e) {
            failure = e;
        }
        return new Recovery(TransferFeature.transfers(member).get(debited.key()).state(), failure);
    }
}
