package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.spi.exception.RetryableHazelcastException;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Starts a Partita member: the one way a node, a test or a benchmark gets one. */
public final class Members {

    private static final Logger LOG = LoggerFactory.getLogger(Members.class);

    private Members() {
    }

    /** Whether {@code member} is the cluster's oldest member, the one that runs the cluster-wide housekeeping. */
    public static boolean isOldest(HazelcastInstance member) {
        return member.getCluster().getMembers().iterator().next().localMember();
    }

    /**
     * Starts a member with the given configuration (from {@link HazelcastConfigs}, with the same features) after
     * making Partita's continuation pool Hazelcast's default async executor, creates its maps' proxies before anything
     * uses them, tells the cluster its values' Compact schemas ({@link CompactSchemas}), and starts the member's
     * partition sentinels and what each feature runs beside it. The member announces its leave to the others when it
     * shuts down gracefully ({@link MembershipNotice}).
     */
    public static HazelcastInstance start(Config config, List<? extends Feature> features) {
        Continuations.install();
        HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
        // A member that shuts down gracefully says so first, so that the others do not take its removal for a network
        // split; one terminated (a crash) does not.
        member.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.SHUTTING_DOWN && !Internals.terminating()) {
                MembershipNotice.announceLeave(member);
            }
        });
        try {
            ClusterClock.keep(member);
            createProxies(member);
            CompactSchemas.replicate(member);
            MemberDisk disk = MemberDisk.open(member);
            // The proxies waited for a majority (they touch maps under split-brain protection): whether the cluster
            // is new is decided among a majority of its members, each asked whether its disk holds data.
            PartitionSentinels.of(member).start(disk.clusterMayBeNew());
            features.forEach(feature -> feature.start(member));
            awaitMajority(member);
        } catch (RuntimeException e) {
            // A member that cannot start (its data directory is another cluster's, say) must not stay in the cluster.
            member.getLifecycleService().terminate();
            throw e;
        }
        return member;
    }

    /**
     * Returns once split-brain protection lets the member serve: Hazelcast first evaluates it one heartbeat interval
     * after the member starts alone, or as soon as others join it, and refuses every protected operation until then.
     * With {@code partita.cluster-size} or a fixed {@code partita.split-brain-protection} above the members present,
     * that is once enough have joined, however long it takes (the node's HTTP port stays closed meanwhile).
     */
    static void awaitMajority(HazelcastInstance member) {
        while (!HazelcastConfigs.majorityPresent(member) && member.getLifecycleService().isRunning()) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Creates this member's proxies of every map, once when a member starts, before any bean or request uses them.
     *
     * <p>Creating the proxy of a map with an index (transfers, jobs) adds the index on every partition; adding it
     * again is harmless and a failed proxy is forgotten, so the creation is a step {@link #repeatUntilDone} may repeat.
     */
    static void createProxies(HazelcastInstance hazelcast) {
        // Without a majority the index's creation fails on every partition, and Hazelcast logs each failed proxy with
        // its stack trace: so the member waits for a majority first (once: a majority lost meanwhile is retried).
        if (!HazelcastConfigs.majorityPresent(hazelcast)) {
            LOG.info("Waiting for a majority of the cluster's members ({} present) before the maps are set up; "
                    + "readiness stays DOWN meanwhile", hazelcast.getCluster().getMembers().size());
            try {
                awaitWhile(hazelcast, () -> !HazelcastConfigs.majorityPresent(hazelcast), 500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a majority", e);
            }
        }
        repeatUntilDone(() -> hazelcast.getConfig().getMapConfigs().keySet().forEach(hazelcast::getMap));
    }

    /** Waits while {@code condition} holds and {@code hazelcast} runs, looking again every {@code millis}. */
    public static void awaitWhile(HazelcastInstance hazelcast, BooleanSupplier condition, long millis)
            throws InterruptedException {
        while (condition.getAsBoolean() && hazelcast.getLifecycleService().isRunning()) {
            Thread.sleep(millis);
        }
    }

    /**
     * Runs a start-up step that is safe to run again (it creates what is missing, or writes with putIfAbsent) until it
     * completes. While other members are joining, or on a busy machine, a backup may not acknowledge in time and the
     * member reports an indeterminate state (or a retryable one): the step is simply run again, up to 50 times. With
     * split-brain protection on (partita.split-brain-protection), the step cannot complete until enough members have
     * joined: the member waits for them, as long as it takes (its readiness stays DOWN meanwhile).
     */
    public static void repeatUntilDone(Runnable step) {
        repeatUntilDone(() -> {
            step.run();
            return null;
        });
    }

    /** {@link #repeatUntilDone(Runnable)} for a step that answers: its answer from the run that completed. */
    public static <T> T repeatUntilDone(Supplier<T> step) {
        for (int attempt = 1; ; attempt++) {
            try {
                return step.get();
            } catch (SplitBrainProtectionException e) {
                attempt = 0;
                pause(500, e);
            } catch (IndeterminateOperationStateException | RetryableHazelcastException e) {
                if (attempt >= 50) {
                    throw e;
                }
                pause(200, e);
            }
        }
    }

    private static void pause(long millis, RuntimeException cause) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw cause;
        }
    }
}
