package io.partita.support;

import com.hazelcast.core.HazelcastInstance;
import io.partita.node.HazelcastConfigs;
import io.partita.node.Members;
import io.partita.node.PartitaProperties;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.awaitility.Awaitility.await;

/**
 * Real Hazelcast members in this JVM, configured exactly as a node configures its own ({@link HazelcastConfigs}),
 * joined by TCP on 127.0.0.1 under a cluster name no other test uses. Conditions are awaited, never slept on.
 */
public final class TestCluster implements AutoCloseable {

    private final JoinList join = new JoinList();
    private final List<HazelcastInstance> members = new CopyOnWriteArrayList<>();
    private final int cpMembers;
    private final PartitaProperties.Journal journal;

    private TestCluster(int cpMembers, PartitaProperties.Journal journal) {
        this.cpMembers = cpMembers;
        this.journal = journal;
    }

    /** {@code size} members with CP in unsafe mode. */
    public static TestCluster start(int size) {
        return start(size, 0);
    }

    /** {@code size} members, {@code cpMembers} of which form the CP Subsystem (0 for unsafe mode). */
    public static TestCluster start(int size, int cpMembers) {
        return start(size, cpMembers, TestProperties.journal());
    }

    /** {@code size} members in unsafe CP mode whose journal writers run with {@code journal}. */
    public static TestCluster start(int size, PartitaProperties.Journal journal) {
        return start(size, 0, journal);
    }

    private static TestCluster start(int size, int cpMembers, PartitaProperties.Journal journal) {
        TestCluster cluster = new TestCluster(cpMembers, journal);
        List<Thread> starting = new ArrayList<>();
        for (int port : cluster.join.reserve(size)) {
            Thread thread = new Thread(() -> cluster.members.add(cluster.startMember(port)));
            thread.start();
            starting.add(thread);
        }
        starting.forEach(thread -> Blocking.run(thread::join));
        cluster.awaitSize(size);
        cluster.awaitSafe();
        return cluster;
    }

    /** Starts one more member that joins this cluster. */
    public HazelcastInstance addMember() {
        HazelcastInstance member = startMember(join.reserve());
        members.add(member);
        return member;
    }

    public HazelcastInstance member(int index) {
        return members.get(index);
    }

    public List<HazelcastInstance> members() {
        return List.copyOf(members);
    }

    /** The properties a node of this cluster would run with, listening on {@code port}. */
    public PartitaProperties properties(int port) {
        return TestProperties.tcp(join.clusterName(), port, join.addresses(), cpMembers, journal);
    }

    /** Graceful leave: the member hands its partitions over before it stops. */
    public void shutdown(HazelcastInstance member) {
        members.remove(member);
        member.shutdown();
    }

    /** A crash: the member stops at once, and the others promote backups of what it owned. */
    public void terminate(HazelcastInstance member) {
        members.remove(member);
        member.getLifecycleService().terminate();
    }

    public void awaitSize(int size) {
        await().atMost(Duration.ofSeconds(60)).until(() ->
                members.stream().allMatch(m -> m.getLifecycleService().isRunning()
                        && m.getCluster().getMembers().size() == size));
    }

    public void awaitSafe() {
        await().atMost(Duration.ofSeconds(120)).until(() ->
                members.stream().allMatch(m -> m.getPartitionService().isClusterSafe()));
    }

    private HazelcastInstance startMember(int port) {
        return Members.start(HazelcastConfigs.memberConfig(properties(port), "http://127.0.0.1:0", AllFeatures.LIST),
                AllFeatures.LIST);
    }

    @Override
    public void close() {
        members.forEach(member -> member.getLifecycleService().terminate());
        members.clear();
    }
}
