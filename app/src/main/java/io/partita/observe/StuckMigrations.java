package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.partition.InternalPartitionService;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Value;
import io.partita.node.Internals;
import io.partita.node.Timers;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The watchdog that makes a member's recovery after a network split certain: it restarts the node when one of the
 * member's partitions stays flagged "migrating" through {@code partita.stuck-migration-timeout} of consecutive checks,
 * far longer than any migration takes. Such a partition refuses every operation, which callers retry forever, so the
 * node would never become ready again. It runs on its own timer thread, one check at a time.
 */
@Context
public class StuckMigrations {

    /*
     * How a flag can stay
     *
     * Seen once after a heal, on a member that had been silent for 40 s. Read from Hazelcast 5.4.0 (not reproduced on
     * purpose): a promotion after a member's removal flags each promoted partition (BeforePromotionOperation) and
     * clears the flags only once all of them are flagged (FinalizePromotionOperation); if one partition is already
     * flagged at that moment (a replica sync flags it while it sends), its operation fails before its callback, the
     * promotion never reaches the finalize stage, and the partitions it did flag stay flagged, with the promotion
     * permit held, for the member's life.
     *
     * What it does
     *
     * The partition service's flags are read every 5 s. A partition flagged through partita.stuck-migration-timeout (2
     * minutes) of consecutive checks is stuck: the watchdog logs it, terminates the member (its partitions have their
     * backups on other members) and ends the process with status 70, so that a supervisor (Kubernetes, compose's
     * restart: on-failure, systemd) starts it again as a new member. Liveness is DOWN from the moment the member stops.
     */

    private static final Logger LOG = LoggerFactory.getLogger(StuckMigrations.class);
    /** The process's exit status once it gave up on its member: EX_SOFTWARE, an internal error. */
    static final int EXIT_STATUS = 70;
    private static final long CHECK_SECONDS = 5;

    private final InternalPartitionService partitions;
    private final long timeoutMillis;
    private final LongSupplier clock;
    private final Runnable restart;
    /** When each partition was first seen flagged in its current run of checks, or -1; only the timer thread. */
    private final long[] flaggedSince;
    /** Only the timer thread touches it, like {@link #flaggedSince}. */
    private boolean gaveUp;
    /** Its own timer, stopped with the bean ({@link Timers}). */
    private final ScheduledExecutorService timer = Timers.single("partita-stuck-migrations");

    @Inject
    StuckMigrations(HazelcastInstance hazelcast, @Value("${partita.stuck-migration-timeout:2m}") Duration timeout) {
        this(hazelcast, timeout, System::currentTimeMillis, () -> {
            hazelcast.getLifecycleService().terminate();
            // Not System.exit from this thread while it waits for shutdown hooks; a thread of its own ends the JVM.
            Thread exit = new Thread(() -> System.exit(EXIT_STATUS), "partita-stuck-exit");
            exit.start();
        });
    }

    StuckMigrations(HazelcastInstance hazelcast, Duration timeout, LongSupplier clock, Runnable restart) {
        this.partitions = Internals.nodeEngine(hazelcast).getPartitionService();
        this.timeoutMillis = timeout.toMillis();
        this.clock = clock;
        this.restart = restart;
        this.flaggedSince = new long[partitions.getPartitionCount()];
        Arrays.fill(flaggedSince, -1);
    }

    /** Reads every partition's flag; restarts the node once one has stayed flagged past the timeout. */
    @PostConstruct
    void start() {
        timer.scheduleWithFixedDelay(this::check, CHECK_SECONDS, CHECK_SECONDS, TimeUnit.SECONDS);
    }

    @PreDestroy
    void stop() {
        timer.shutdownNow();
    }

    void check() {
        if (gaveUp) {
            return;
        }
        long now = clock.getAsLong();
        List<Integer> stuck = new ArrayList<>();
        for (int id = 0; id < flaggedSince.length; id++) {
            if (!partitions.getPartition(id, false).isMigrating()) {
                flaggedSince[id] = -1;
            } else if (flaggedSince[id] < 0) {
                flaggedSince[id] = now;
            } else if (now - flaggedSince[id] >= timeoutMillis) {
                stuck.add(id);
            }
        }
        if (!stuck.isEmpty()) {
            gaveUp = true;
            LOG.error("Partitions {} have been flagged as migrating for more than {} s with no migration finishing: "
                    + "every operation on them is refused. Terminating this member and ending the process (status {}) "
                    + "so that it restarts as a new member; its data has backups on the other members.",
                    stuck, timeoutMillis / 1000, EXIT_STATUS);
            restart.run();
        }
    }
}
