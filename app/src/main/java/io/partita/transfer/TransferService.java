package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.core.annotation.Nullable;
import io.partita.account.Account;
import io.partita.account.AccountService;
import io.partita.account.JournalEntry;
import io.partita.account.TransactionPath;
import io.partita.account.TxOutcome;
import io.partita.account.TxRequest;
import io.partita.account.TxStatus;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import io.partita.locking.AccountLocks;
import io.partita.locking.Held;
import io.partita.web.ApiException;
import io.partita.web.Failures;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Transfers between two accounts, in either processing mode, and the completion of unfinished ones.
 *
 * <p>What runs where: the node that receives a transfer coordinates it on the calling thread, which blocks (the
 * controller runs it on the blocking executor). It records the transfer in the {@code transfers} map, in the source
 * account's partition, then drives it through its steps (see {@link Transfer}): each step is a transaction on one
 * account, journaled by {@link AccountService} before the next step starts. In partitioned mode a step runs as an
 * entry processor at the account's partition owner and no lock is taken. In locked mode the coordinator first takes
 * both accounts' FencedLocks, in order of id, and each step is read, checked and written by this thread with the
 * lock's fence; the locks are released when the transfer has its answer.
 *
 * <p>Failure: if the coordinator dies between steps, the record stays unfinished; {@link TransferRecovery} on the
 * member that owns it drives it to the end with the same steps, without locks. Each step applies at most once (its
 * txId is derived from the transfer), and the record only moves forward, so a coordinator and a recovery pass that
 * run one transfer at the same time come to the same answer and apply nothing twice.
 */
@Singleton
class TransferService {

    /** A transfer's answer; {@code replayed} when the transfer was recorded before this request. */
    record Result(Transfer transfer, boolean replayed) {
    }

    private final IMap<TransferKey, Transfer> transfers;
    private final AccountService accounts;
    private final AccountLocks locks;
    private final TransactionPath partitioned;
    private final ProcessingMode defaultMode;
    private final String localMember;

    TransferService(HazelcastInstance hazelcast, AccountService accounts, AccountLocks locks,
                    List<TransactionPath> paths, PartitaProperties properties) {
        this.transfers = Maps.transfers(hazelcast);
        this.accounts = accounts;
        this.locks = locks;
        this.partitioned = paths.stream().filter(path -> path.mode() == ProcessingMode.PARTITIONED).findFirst()
                .orElseThrow(() -> new IllegalStateException("No partitioned processing path"));
        this.defaultMode = properties.processing().mode();
        this.localMember = hazelcast.getCluster().getLocalMember().getUuid().toString();
    }

    /**
     * Runs a transfer to its answer, or replays the answer it already has.
     *
     * @throws ApiException 400 for the same account on both sides, 404 for an unknown account, 409 for a transfer id
     *                      reused with another payload, 503 for a lock not free in time or a transient grid failure
     *                      (retrying with the same id is always safe)
     */
    Result transfer(TransferRequest request, @Nullable ProcessingMode mode) {
        if (request.from().equals(request.to())) {
            throw ApiException.invalidField("to", "must be another account than from");
        }
        try {
            Transfer recorded = transfers.get(request.key());
            if (recorded != null && recorded.state().terminal()) {
                return replay(recorded, request);
            }
            requireAccounts(request);
            if ((mode == null ? defaultMode : mode) == ProcessingMode.LOCKED) {
                try (Held held = locks.lock(request.from(), request.to())) {
                    return beginAndDrive(request, held.path());
                }
            }
            return beginAndDrive(request, partitioned);
        } catch (RuntimeException e) {
            throw Failures.translate(e);
        }
    }

    /** Drives an unfinished transfer to its end without locks; answers it as it stands afterwards, or null. */
    Transfer recover(TransferKey key) {
        Transfer transfer = transfers.get(key);
        return transfer == null || transfer.state().terminal() ? transfer : drive(transfer, partitioned);
    }

    private Result beginAndDrive(TransferRequest request, TransactionPath path) {
        Transfer proposed = Transfer.begin(request, System.currentTimeMillis(), localMember);
        Transfer existing = transfers.executeOnKey(request.key(), new BeginTransfer(proposed));
        if (existing != null) {
            requireSamePayload(existing, request);
        }
        return new Result(drive(existing == null ? proposed : existing, path), existing != null);
    }

    private Result replay(Transfer recorded, TransferRequest request) {
        requireSamePayload(recorded, request);
        return new Result(recorded, true);
    }

    private Transfer drive(Transfer transfer, TransactionPath path) {
        Transfer current = transfer;
        while (!current.state().terminal()) {
            current = switch (current.state()) {
                case PENDING -> debit(current, path);
                case DEBITED -> credit(current, path);
                case REFUNDING -> refund(current, path);
                default -> throw new IllegalStateException("Unexpected state of " + current);
            };
        }
        return current;
    }

    private Transfer debit(Transfer transfer, TransactionPath path) {
        JournalEntry debit = step(path, transfer.from(), transfer.debit());
        return advance(debit.status() == TxStatus.APPLIED
                ? transfer.debited(debit.balanceAfter())
                : transfer.rejected(debit.balanceAfter(), Transfer.INSUFFICIENT_FUNDS));
    }

    private Transfer credit(Transfer transfer, TransactionPath path) {
        JournalEntry credit = step(path, transfer.to(), transfer.credit());
        return advance(credit.status() == TxStatus.APPLIED
                ? transfer.completed(credit.balanceAfter())
                : transfer.refunding(credit.balanceAfter()));
    }

    private Transfer refund(Transfer transfer, TransactionPath path) {
        JournalEntry refund = step(path, transfer.from(), transfer.refund());
        return advance(transfer.rejected(refund.balanceAfter(), Transfer.BALANCE_LIMIT));
    }

    private JournalEntry step(TransactionPath path, String accountId, TxRequest request) {
        TxOutcome outcome = accounts.applyWith(path, accountId, request).toCompletableFuture().join();
        if (outcome.kind() != TxOutcome.Kind.RECORDED && outcome.kind() != TxOutcome.Kind.REPLAYED) {
            // Accounts are never deleted and derived ids never collide, so this is a bug, not a client error.
            throw new IllegalStateException("Transfer step " + request.txId() + " on " + accountId + " answered "
                    + outcome);
        }
        return outcome.entry();
    }

    private Transfer advance(Transfer next) {
        return transfers.executeOnKey(next.key(), new AdvanceTransfer(next));
    }

    private void requireAccounts(TransferRequest request) {
        CompletableFuture<Optional<Account>> from = accounts.find(request.from()).toCompletableFuture();
        CompletableFuture<Optional<Account>> to = accounts.find(request.to()).toCompletableFuture();
        if (from.join().isEmpty()) {
            throw ApiException.notFound("Account", request.from());
        }
        if (to.join().isEmpty()) {
            throw ApiException.notFound("Account", request.to());
        }
    }

    private static void requireSamePayload(Transfer recorded, TransferRequest request) {
        if (!recorded.samePayloadAs(request)) {
            throw ApiException.conflict("txid-conflict", "Transfer id reused", "Transfer id '" + request.txId()
                    + "' was already used from account '" + request.from() + "' with another payload.");
        }
    }
}
