package io.partita.transfer;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicate;
import com.hazelcast.query.Predicates;
import io.micronaut.context.annotation.Context;
import io.partita.node.ClusterClock;
import io.partita.node.PartitaProperties;
import io.partita.node.Timers;
import io.partita.refusal.Refusal;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Completes transfers whose coordinator stopped between steps: each member drives the unfinished transfer records it
 * owns to the end, those older than {@code partita.transfers.recovery-after} and, when a member leaves, those that
 * member coordinated. The passes run one at a time on its own thread ("partita-transfer-recovery"); member-removed
 * events, on Hazelcast's event threads, only schedule a pass there.
 */
@Context
class TransferRecovery implements MembershipListener, AutoCloseable {

    /*
     * Passes
     *
     * Each member looks only at the transfer records it owns (localKeySet), so every record has exactly one member
     * looking after it and a record moves to its new owner with its partition. A pass runs every recoveryAfter / 5 (at
     * least a second) for unfinished records that began more than partita.transfers.recovery-after ago, and, when a
     * member leaves, for the unfinished records that member coordinated, whatever their age (its backups are promoted
     * by then: the pass waits a second for that).
     *
     * Why timing cannot break anything
     *
     * A pass may pick up a transfer whose coordinator is still alive but slow (clock skew between members, a long lock
     * wait). Both then drive the same steps; each step applies once and the record only moves forward, so the worst
     * case is duplicated effort. A failed pass (a member leaving, a migration) leaves the record unfinished for the
     * next pass. Each transfer gets a request timeout per pass. Every step outcome leads to a next record, so what
     * fails here is transient; a failure that is not (a bug) is logged with its stack trace once per transfer, then
     * quietly retried, instead of once a second.
     */

    private static final Logger LOG = LoggerFactory.getLogger(TransferRecovery.class);
    private static final Duration AFTER_MEMBER_LEFT = Duration.ofSeconds(1);

    private final IMap<TransferKey, Transfer> transfers;
    private final TransferService service;
    private final Duration recoveryAfter;
    private final ScheduledExecutorService scheduler;
    private final UUID listener;
    private final AtomicLong recovered = new AtomicLong();
    private final Set<TransferKey> reported = ConcurrentHashMap.newKeySet();
    private final HazelcastInstance hazelcast;

    TransferRecovery(HazelcastInstance hazelcast, TransferService service, PartitaProperties properties) {
        this.hazelcast = hazelcast;
        this.transfers = TransferFeature.transfers(hazelcast);
        this.service = service;
        this.recoveryAfter = properties.transfers().recoveryAfter();
        this.scheduler = Timers.single("partita-transfer-recovery");
        long period = Math.max(1_000, recoveryAfter.toMillis() / 5);
        scheduler.scheduleWithFixedDelay(this::recoverStale, period, period, TimeUnit.MILLISECONDS);
        this.listener = hazelcast.getCluster().addMembershipListener(this);
    }

    /** How many transfers this member's passes have driven to their end. */
    long recovered() {
        return recovered.get();
    }

    @Override
    public void memberAdded(MembershipEvent event) {
        // A new member takes over partitions, and with them records, through migration: nothing to do here.
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
        String coordinator = event.getMember().getUuid().toString();
        scheduler.schedule(() -> recover(Predicates.and(unfinished(), Predicates.equal("coordinator", coordinator))),
                AFTER_MEMBER_LEFT.toMillis(), TimeUnit.MILLISECONDS);
    }

    void recoverStale() {
        long startedBefore = ClusterClock.now(hazelcast) - recoveryAfter.toMillis();
        recover(Predicates.and(unfinished(), Predicates.lessThan("at", startedBefore)));
    }

    private void recover(Predicate<TransferKey, Transfer> which) {
        if (!hazelcast.getLifecycleService().isRunning()) {
            return;
        }
        Set<TransferKey> keys;
        try {
            keys = transfers.localKeySet(which);
        } catch (RuntimeException e) {
            LOG.debug("Transfer recovery could not list its transfers; the next pass retries: {}", e.toString());
            return;
        }
        for (TransferKey key : keys) {
            try {
                Transfer done = service.recover(key);
                reported.remove(key);
                if (done != null && done.state().terminal()) {
                    recovered.incrementAndGet();
                    LOG.info("Recovered transfer {} from {} to {}: {}", key.txId(), key.from(), done.to(),
                            done.state());
                }
            } catch (Refusal e) {
                LOG.debug("Transfer {} from {} not recovered yet; the next pass retries: {}", key.txId(),
                        key.from(), e.getMessage());
            } catch (RuntimeException e) {
                if (reported.add(key)) {
                    LOG.warn("Transfer {} from {} could not be recovered; the next passes retry", key.txId(),
                            key.from(), e);
                } else {
                    LOG.debug("Transfer {} from {} still not recovered: {}", key.txId(), key.from(), e.toString());
                }
            }
        }
    }

    private static Predicate<TransferKey, Transfer> unfinished() {
        return Predicates.in("state", TransferState.PENDING.name(), TransferState.DEBITED.name(),
                TransferState.REFUNDING.name());
    }

    @PreDestroy
    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            hazelcast.getCluster().removeMembershipListener(listener);
        } catch (RuntimeException e) {
            // The member is already down: its listeners went with it.
        }
    }
}
