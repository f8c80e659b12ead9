package io.partita.transfer;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.micronaut.core.annotation.Nullable;
import io.partita.account.Account;
import io.partita.account.AccountService;
import io.partita.account.TxOutcome;
import io.partita.locking.AccountLocks;
import io.partita.locking.Deadline;
import io.partita.locking.Held;
import io.partita.node.BackedUpCalls;
import io.partita.node.ClusterClock;
import io.partita.node.PartitaProperties;
import io.partita.node.ProcessingMode;
import io.partita.refusal.GridFailures;
import io.partita.refusal.Refusal;
import io.partita.transaction.TransactionPath;
import io.partita.transaction.TransactionService;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Transfers between two accounts, in either processing mode, and the completion of unfinished ones. A transfer is
 * recorded in the {@code transfers} map, then driven step by step (see {@link Transfer}); each step applies at most
 * once, so a coordinator and {@link TransferRecovery} that drive one transfer at once come to the same answer.
 *
 * <p>The node that receives a transfer coordinates it on the calling thread, which blocks (the blocking executor, or
 * recovery's own thread); in locked mode that thread takes both accounts' FencedLocks, in order of id. The bean shares
 * nothing mutable: two drivers of one transfer are kept apart in the grid, not in this process.
 */
@Singleton
class TransferService {

    /*
     * Steps
     *
     * The coordinator records the transfer in the transfers map, in the source account's partition, then drives it
     * through its steps (see Transfer): each step is a transaction on one account, journaled by AccountService before
     * the next step starts. In partitioned mode a step runs as an entry processor at the account's partition owner and
     * no lock is taken. In locked mode the locks are released when the transfer has its answer or stops.
     *
     * Time
     *
     * A transfer has one Deadline, taken when it arrived (partita.request-timeout). Every grid call waits until it at
     * most, the lock wait ends at it, and no step is started after it. Past it the transfer answers 503: "nothing was
     * changed" before the record was written, "may or may not have been applied" after (the record, unfinished, is then
     * completed by a retry or by recovery).
     *
     * Failure
     *
     * If the coordinator dies or gives up between steps, the record stays unfinished; TransferRecovery on the member
     * that owns it drives it to the end with the same steps, without locks. Each step applies at most once (its txId is
     * derived from the transfer), and the record only moves forward, so a coordinator and a recovery pass that run one
     * transfer at the same time come to the same answer and apply nothing twice. Every step outcome has a next record
     * (Transfer.after), so no transfer is left stuck.
     */

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
    /** How soon a client may retry a transfer one of whose accounts is in a lost partition. */
    private static final Duration PARTITION_LOST_RETRY = Duration.ofSeconds(5);

    private final AccountService accounts;
    private final HazelcastInstance hazelcast;
    private final TransactionService transactions;
    private final AccountLocks locks;
    private final TransactionPath partitioned;
    private final ProcessingMode defaultMode;
    private final String localMember;
    private final Duration requestTimeout;
    private final long terminalTtlMillis;

    TransferService(HazelcastInstance hazelcast, AccountService accounts, TransactionService transactions,
                    AccountLocks locks, List<TransactionPath> paths, PartitaProperties properties) {
        this.hazelcast = hazelcast;
        this.transfers = TransferFeature.transfers(hazelcast);
        this.accounts = accounts;
        this.transactions = transactions;
        this.locks = locks;
        this.partitioned = paths.stream().filter(path -> path.mode() == ProcessingMode.PARTITIONED).findFirst()
                .orElseThrow(() -> new IllegalStateException("No partitioned processing path"));
        this.defaultMode = properties.processing().mode();
        this.localMember = hazelcast.getCluster().getLocalMember().getUuid().toString();
        this.requestTimeout = properties.requestTimeout();
        this.terminalTtlMillis = properties.journal().retention().plus(AFTER_RETENTION).toMillis();
    }

    /** {@link #transfer(TransferRequest, ProcessingMode, Deadline)} for a request arriving now. */
    Result transfer(TransferRequest request, @Nullable ProcessingMode mode) {
        return transfer(request, mode, Deadline.after(requestTimeout));
    }

    /**
     * Runs a transfer to its answer, or replays the answer it already has. Both modes answer alike: the record is
     * looked at first, so a retry of a recorded transfer gets 409 for another payload or its recorded answer, and
     * only a transfer not recorded yet gets 404 for an unknown account.
     *
     * @throws Refusal 400 for the same account on both sides, 404 for an unknown account, 409 for a transfer id
     *                      reused with another payload, 503 for a lock not free in time, the deadline passed or a
     *                      transient grid failure (retrying with the same id is always safe)
     */
    Result transfer(TransferRequest request, @Nullable ProcessingMode mode, Deadline deadline) {
        if (request.from().equals(request.to())) {
            throw Refusal.invalidField("to", "must be another account than from");
        }
        try {
            deadline.check();
            // The accounts are read alongside the record, for a new transfer's 404: no round trip added.
            CompletionStage<Optional<Account>> from = accounts.find(request.from());
            CompletionStage<Optional<Account>> to = accounts.find(request.to());
            Transfer recorded = deadline.await(transfers.getAsync(request.key()));
            if (recorded != null) {
                requireSamePayload(recorded, request);
                if (recorded.state().terminal()) {
                    // A retry of a finished transfer is answered without taking any lock.
                    return new Result(recorded, true);
                }
                // Unfinished: earlier attempts may have applied steps, and from here on this one may apply more.
                deadline.beforeWrite();
            } else {
                requireAccount(deadline.await(from), request.from());
                requireAccount(deadline.await(to), request.to());
            }
            if ((mode == null ? defaultMode : mode) == ProcessingMode.LOCKED) {
                try (Held held = locks.lock(deadline, request.from(), request.to())) {
                    return beginAndDrive(request, held.path(), deadline);
                }
            }
            return beginAndDrive(request, partitioned, deadline);
        } catch (RuntimeException e) {
            throw GridFailures.translate(e);
        }
    }

    /**
     * Drives an unfinished transfer to its end without locks, within a request timeout; answers it as it stands
     * afterwards, or null.
     *
     * @throws Refusal 503 for a transient grid failure or the time running out: the transfer stays unfinished for
     *                      the next attempt
     */
    Transfer recover(TransferKey key) {
        Deadline deadline = Deadline.after(requestTimeout);
        try {
            Transfer transfer = deadline.await(transfers.getAsync(key));
            return transfer == null || transfer.state().terminal() ? transfer : drive(transfer, partitioned, deadline);
        } catch (RuntimeException e) {
            throw GridFailures.translate(e);
        }
    }

    /** Records the transfer, or finds it recorded (a retry), and drives it to its end: a finished one is as it is. */
    private Result beginAndDrive(TransferRequest request, TransactionPath path, Deadline deadline) {
        Transfer proposed = Transfer.begin(request, ClusterClock.now(hazelcast), localMember);
        deadline.beforeWrite();
        // Through BackedUpCalls, as every step below: the record's disk write, on owner and backup, is queued to the
        // committer and the answer comes once it is durable (DiskAcks); the partition thread does not wait for it.
        Transfer existing = deadline.await(BackedUpCalls.submitToKey(hazelcast, TransferFeature.TRANSFERS,
                request.key(), new BeginTransfer(proposed)));
        if (existing != null) {
            requireSamePayload(existing, request);
            return new Result(drive(existing, path, deadline), true);
        }
        // A new record whose debit its account has recorded already: the transfer was made before and its record is
        // gone (a finished one is not kept on disk, so after a restart of every node only its steps remain). Its
        // steps replay their first answers, and so does the transfer.
        AtomicBoolean debitReplayed = new AtomicBoolean();
        Transfer done = drive(proposed, path, deadline, outcome -> debitReplayed.compareAndSet(false,
                outcome.kind() == TxOutcome.Kind.REPLAYED));
        return new Result(done, debitReplayed.get());
    }

    private Transfer drive(Transfer transfer, TransactionPath path, Deadline deadline) {
        return drive(transfer, path, deadline, outcome -> { });
    }

    /** Drives {@code transfer} step by step to its end; {@code firstStep} hears the first step's outcome. */
    private Transfer drive(Transfer transfer, TransactionPath path, Deadline deadline, Consumer<TxOutcome> firstStep) {
        Transfer current = transfer;
        boolean first = true;
        while (!current.state().terminal()) {
            deadline.beforeWrite();
            TxOutcome outcome = deadline.await(transactions.applyWith(path, current.stepAccount(), current.step()));
            if (first) {
                firstStep.accept(outcome);
                first = false;
            }
            if (outcome.kind() == TxOutcome.Kind.PARTITION_LOST) {
                // Not "no such account": its partition's data is on the other side of a split, or with members that
                // crashed together. Deciding now would refund a transfer to an account that exists; the record stays
                // where it is and recovery finishes it once the data is back.
                throw Refusal.unavailable("The data of account '" + current.stepAccount() + "' is not available: "
                        + "every copy of its partition left the cluster at once. The transfer is recorded and stays "
                        + "unfinished until the data is back; retry with the same id to learn its outcome.",
                        PARTITION_LOST_RETRY);
            }
            Transfer next = current.after(outcome);
            reportUnexpected(current, outcome, next);
            current = deadline.await(BackedUpCalls.submitToKey(hazelcast, TransferFeature.TRANSFERS, next.key(),
                    new AdvanceTransfer(next, terminalTtlMillis)));
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

    private static void requireAccount(Optional<Account> account, String id) {
        if (account.isEmpty()) {
            throw Refusal.notFound("Account", id);
        }
    }

    private static void requireSamePayload(Transfer recorded, TransferRequest request) {
        if (!recorded.samePayloadAs(request)) {
            throw conflict(request.txId(), request.from());
        }
    }

    static Refusal conflict(String txId, String from) {
        return Refusal.idReused("Transfer", "Transfer id '" + txId
                + "' was already used from account '" + from + "' with another payload.");
    }
}
