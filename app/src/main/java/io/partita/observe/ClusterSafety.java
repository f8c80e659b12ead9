package io.partita.observe;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;
import io.micronaut.context.annotation.Context;
import io.partita.node.Timers;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;

import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Whether the cluster is safe (every partition has its backups, no migration in flight), as last learned.
 * <b>Threads:</b> one daemon thread of this node ("partita-cluster-safety") asks, waiting up to
 * {@link #ANSWER_WITHIN_MILLIS} for each answer (the question runs on a small pool of its own, see {@link #ask}), and
 * keeps the answer in a volatile field; every reader, on any thread (readiness probes on the event loops,
 * {@code /cluster}, Prometheus scrapes), gets the last answer without waiting. Hazelcast's event threads only mark a change and wake the
 * asker.
 *
 * <p>How often: asking is not free. Each question makes every member check every partition it owns against each
 * backup (one replica-version operation per partition and backup, 271 for the cluster), so three nodes asking twice a
 * second made about 2,700 member operations a second, loaded or idle. The asker therefore asks every
 * {@link #PERIOD_MILLIS} while the last answer was "unsafe" and for {@link #SETTLING_MILLIS} after a change, and every
 * {@link #SAFE_PERIOD_MILLIS} while the cluster was safe and nothing changed. A change is a member joining or leaving
 * and every migration event (start, end, each replica moved or failed, promotions after a crash); it also sets the
 * answer to unsafe at once, so a reader never sees "safe" from before a member left. What no event announces (a
 * backup that fell behind, a member that stopped answering but is not yet removed) is seen within
 * {@link #SAFE_PERIOD_MILLIS}.
 *
 * <p>Why not ask per request: asking is a round trip to every member, and a member that is paused (a long GC pause,
 * SIGSTOP) holds the answer, and an operation thread of each member that asked, until it is removed. Asked per request
 * (readiness probes, the dashboard's poll of {@code /cluster}, a Prometheus scrape) that ties up the live members
 * while one is paused. Until the first answer, and while the member is not running, the cluster is reported unsafe.
 */
@Context
public class ClusterSafety {

    static final long PERIOD_MILLIS = 500;
    static final long SAFE_PERIOD_MILLIS = 5_000;
    static final long SETTLING_MILLIS = 10_000;
    /** How long the asker waits for one answer before it takes the cluster as unsafe and asks again later. */
    static final long ANSWER_WITHIN_MILLIS = 5_000;
    /** Questions under way at most (late ones included). */
    static final int MAX_QUESTIONS = 3;

    private final HazelcastInstance hazelcast;
    private final ScheduledExecutorService asker = Timers.single("partita-cluster-safety");
    private final AtomicBoolean changed = new AtomicBoolean(true);
    /** Runs the questions; a question past its {@link #MAX_QUESTIONS} threads is refused (unsafe until one is back). */
    private final ExecutorService questions = new ThreadPoolExecutor(0, MAX_QUESTIONS, 1, TimeUnit.MINUTES,
            new SynchronousQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "partita-cluster-safety-question");
                thread.setDaemon(true);
                return thread;
            });
    private final BooleanSupplier question;
    private final UUID membershipRegistration;
    private final UUID migrationRegistration;
    private volatile boolean safe;
    /** Written and read by the asker only. */
    private long lastAsked;
    private long lastChange;

    @Inject
    ClusterSafety(HazelcastInstance hazelcast) {
        this(hazelcast, () -> hazelcast.getPartitionService().isClusterSafe());
    }

    /** Asks {@code question} instead of Hazelcast: for tests. */
    ClusterSafety(HazelcastInstance hazelcast, BooleanSupplier question) {
        this.hazelcast = hazelcast;
        this.question = question;
        membershipRegistration = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                changed();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                changed();
            }
        });
        migrationRegistration = hazelcast.getPartitionService().addMigrationListener(new MigrationListener() {
            @Override
            public void migrationStarted(MigrationState state) {
                changed();
            }

            @Override
            public void migrationFinished(MigrationState state) {
                changed();
            }

            @Override
            public void replicaMigrationCompleted(ReplicaMigrationEvent event) {
                changed();
            }

            @Override
            public void replicaMigrationFailed(ReplicaMigrationEvent event) {
                changed();
            }
        });
        asker.scheduleWithFixedDelay(this::tick, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The last answer: whether the cluster was safe when this node last asked, and nothing changed since. */
    public boolean isSafe() {
        return safe && hazelcast.getLifecycleService().isRunning();
    }

    private void changed() {
        safe = false;
        if (changed.compareAndSet(false, true)) {
            try {
                asker.execute(this::tick);
            } catch (RuntimeException e) {
                // Stopping: the asker is shut down, and the answer stays unsafe.
            }
        }
    }

    private void tick() {
        long now = System.nanoTime();
        if (changed.getAndSet(false)) {
            lastChange = now;
        } else {
            boolean quiet = safe && now - lastChange >= TimeUnit.MILLISECONDS.toNanos(SETTLING_MILLIS);
            if (now - lastAsked < TimeUnit.MILLISECONDS.toNanos(quiet ? SAFE_PERIOD_MILLIS : PERIOD_MILLIS)) {
                return;
            }
        }
        lastAsked = now;
        boolean answer = hazelcast.getLifecycleService().isRunning() && ask();
        // A change while asking may have come after the answer was made: it stays unsafe until asked again.
        safe = answer && !changed.get();
    }

    /**
     * Hazelcast's answer, or false if it has none within {@link #ANSWER_WITHIN_MILLIS}. A question sent to a member
     * at the moment it crashed can wait for Hazelcast's own deadline (a minute or more) instead of failing when the
     * member is removed; the asker must not wait with it, or the answer would stay "unsafe" that long after the cluster
     * settled. So each question runs on a thread of {@link #questions}, at most {@link #MAX_QUESTIONS} at once, and
     * one that is late is left to finish while the next tick asks again (the member list it sees is then the new one).
     */
    private boolean ask() {
        try {
            return questions.submit(question::getAsBoolean).get(ANSWER_WITHIN_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException | TimeoutException | ExecutionException e) {
            // Too many questions late, none in time, or a member stopping or not yet joined: unsafe until answered.
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @PreDestroy
    void stop() {
        asker.shutdownNow();
        questions.shutdownNow();
        try {
            hazelcast.getCluster().removeMembershipListener(membershipRegistration);
            hazelcast.getPartitionService().removeMigrationListener(migrationRegistration);
        } catch (RuntimeException e) {
            // The member is already shut down, and its listeners with it.
        }
    }
}
