package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.core.annotation.Nullable;
import io.partita.account.Account;
import io.partita.account.AccountService;
import io.partita.account.TransactionPath;
import io.partita.account.TxOutcome;
import io.partita.cluster.Maps;
import io.partita.cluster.PartitaProperties;
import io.partita.cluster.PartitaProperties.ProcessingMode;
import io.partita.locking.AccountLocks;
import io.partita.locking.Held;
import io.partita.web.ApiException;
import io.partita.web.Failures;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
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
 * run one transfer at the same time come to the same answer and apply nothing twice. Every step outcome has a next
 * record ({@link Transfer#after}), so no transfer is left stuck.
 */
@Singleton
class TransferService {

    /**
     * A finished record outlives the retention of the journal by this much. Its steps' journal entries were written
     * before it finished, or within a request timeout after it by a slow second driver replaying a step; while any of
     * them is kept, the record must be too, or a new transfer reusing the id would replay one old step and apply the
     * other anew.
     */
    static final Duration AFTER_RETENTION = Duration.ofHours(1);

    private static final Logger LOG = LoggerFactory.getLogger(TransferService.class);

    /** A transfer's answer; {@code replayed} when the transfer was recorded before this request. */
    record Result(Transfer transfer, boolean replayed) {
    }

    private final IMap<TransferKey, Transfer> transfers;
    private final AccountService accounts;
    private final AccountLocks locks;
    private final TransactionPath partitioned;
    private final ProcessingMode defaultMode;
    private final String localMember;
    private final long terminalTtlMillis;

    TransferService(HazelcastInstance hazelcast, AccountService accounts, AccountLocks locks,
                    List<TransactionPath> paths, PartitaProperties properties) {
        this.transfers = Maps.transfers(hazelcast);
        this.accounts = accounts;
        this.locks = locks;
        this.partitioned = paths.stream().filter(path -> path.mode() == ProcessingMode.PARTITIONED).findFirst()
                .orElseThrow(() -> new IllegalStateException("No partitioned processing path"));
        this.defaultMode = properties.processing().mode();
        this.localMember = hazelcast.getCluster().getLocalMember().getUuid().toString();
        this.terminalTtlMillis = properties.journal().retention().plus(AFTER_RETENTION).toMillis();
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
            if ((mode == null ? defaultMode : mode) == ProcessingMode.LOCKED) {
                // A retry of a finished transfer is answered without taking any lock.
                Transfer recorded = transfers.get(request.key());
                if (recorded != null && recorded.state().terminal()) {
                    return replay(recorded, request);
                }
                requireAccounts(request);
                try (Held held = locks.lock(request.from(), request.to())) {
                    return beginAndDrive(request, held.path());
                }
            }
            requireAccounts(request);
            return beginAndDrive(request, partitioned);
        } catch (RuntimeException e) {
            throw Failures.translate(e);
        }
    }

    /**
     * Drives an unfinished transfer to its end without locks; answers it as it stands afterwards, or null.
     *
     * @throws ApiException 503 for a transient grid failure: the transfer stays unfinished for the next attempt
     */
    Transfer recover(TransferKey key) {
        try {
            Transfer transfer = transfers.get(key);
            return transfer == null || transfer.state().terminal() ? transfer : drive(transfer, partitioned);
        } catch (RuntimeException e) {
            throw Failures.translate(e);
        }
    }

    /** Records the transfer, or finds it recorded (a retry), and drives it to its end: a finished one is as it is. */
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
            TxOutcome outcome = accounts.applyWith(path, current.stepAccount(), current.step()).toCompletableFuture()
                    .join();
            Transfer next = current.after(outcome);
            reportUnexpected(current, outcome, next);
            current = transfers.executeOnKey(next.key(), new AdvanceTransfer(next, terminalTtlMillis));
        }
        return current;
    }

    /**
     * A step that could not be recorded at all never happens while records outlive their steps' journal entries; it
     * means an id reused after a record was lost, or an account lost. The transfer is still finished deterministically
     * ({@link Transfer#after}); this says so in the log, as an error when money stays debited.
     */
    private static void reportUnexpected(Transfer transfer, TxOutcome outcome, Transfer next) {
        if (outcome.kind() != TxOutcome.Kind.CONFLICT && outcome.kind() != TxOutcome.Kind.NOT_FOUND) {
            return;
        }
        if (Transfer.REFUND_FAILED.equals(next.reason())) {
            LOG.error("Transfer {} from {} to {}: the refund of {} could not be recorded ({}); the amount stays "
                            + "debited from {} and needs a manual correction", transfer.txId(), transfer.from(),
                    transfer.to(), transfer.amount(), outcome.kind(), transfer.from());
        } else {
            LOG.warn("Transfer {} from {} to {}: step {} on {} answered {}; the transfer is {} ({})", transfer.txId(),
                    transfer.from(), transfer.to(), transfer.step().txId(), transfer.stepAccount(), outcome.kind(),
                    next.state(), next.reason());
        }
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
            throw conflict(request.txId(), request.from());
        }
    }

    static ApiException conflict(String txId, String from) {
        return ApiException.conflict("txid-conflict", "Transfer id reused", "Transfer id '" + txId
                + "' was already used from account '" + from + "' with another payload.");
    }
}
