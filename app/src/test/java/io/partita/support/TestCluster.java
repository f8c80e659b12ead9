package io.partita.support;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.partita.account.MemberLedger;
import io.partita.node.HazelcastConfigs;
import io.partita.node.MemberDisk;
import io.partita.node.Members;
import io.partita.node.PartitaProperties;
import org.awaitility.core.ConditionTimeoutException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import static org.awaitility.Awaitility.await;

/**
 * Real Hazelcast members in this JVM, configured exactly as a node configures its own ({@link HazelcastConfigs}),
 * joined by TCP on 127.0.0.1 under a cluster name no other test uses. Conditions are awaited, never slept on.
 */
public final class TestCluster implements AutoCloseable {

    private final JoinList join;
    private final List<HazelcastInstance> members = new CopyOnWriteArrayList<>();
    private final int cpMembers;
    private final PartitaProperties.Journal journal;
    /** Where durable members keep their data; null for members in memory only. */
    private final Path dataDir;
    /** A durable member's name (its directory under {@link #dataDir}) by its port. */
    private final Map<Integer, String> names = new ConcurrentHashMap<>();
    /**
     * Adds to each member's configuration, as a node's {@code MemberConfigCustomizer} beans do; given the member's name
     * (null for members in memory only).
     */
    private final BiConsumer<String, Config> customizer;
    /** The members' {@code partita.cluster-size}; 0 to leave it unset. */
    private final int clusterSize;

    private TestCluster(JoinList join, int cpMembers, PartitaProperties.Journal journal, Path dataDir,
                        BiConsumer<String, Config> customizer) {
        this(join, cpMembers, journal, dataDir, customizer, 0);
    }

    private TestCluster(JoinList join, int cpMembers, PartitaProperties.Journal journal, Path dataDir,
                        BiConsumer<String, Config> customizer, int clusterSize) {
        this.clusterSize = clusterSize;
        this.join = join;
        this.cpMembers = cpMembers;
        this.journal = journal;
        this.dataDir = dataDir;
        this.customizer = customizer;
    }

    /**
     * Members of cluster {@code clusterName} with {@code partita.durability=flush} and their data under
     * {@code dataDir}, one per name in {@code memberNames} (each its own subdirectory, so a member started again under
     * its name, in a cluster of the same name, finds its data).
     */
    public static TestCluster durable(String clusterName, Path dataDir, String... memberNames) {
        return durable(clusterName, dataDir, TestProperties.journal(), memberNames);
    }

    /** {@link #durable(String, Path, String...)} with journal writers that run with {@code journal}. */
    public static TestCluster durable(String clusterName, Path dataDir, PartitaProperties.Journal journal,
                                      String... memberNames) {
        return durable(clusterName, dataDir, journal, (name, config) -> { }, memberNames);
    }

    /** {@link #durable(String, Path, String...)} with {@code customizer} adding to each member's configuration. */
    public static TestCluster durable(String clusterName, Path dataDir, Consumer<Config> customizer,
                                      String... memberNames) {
        return durable(clusterName, dataDir, (name, config) -> customizer.accept(config), memberNames);
    }

    /**
     * {@link #durable(String, Path, String...)} with {@code customizer} adding to each member's configuration, given
     * the member's name.
     */
    public static TestCluster durable(String clusterName, Path dataDir, BiConsumer<String, Config> customizer,
                                      String... memberNames) {
        return durable(clusterName, dataDir, TestProperties.journal(), customizer, memberNames);
    }

    private static TestCluster durable(String clusterName, Path dataDir, PartitaProperties.Journal journal,
                                       BiConsumer<String, Config> customizer, String... memberNames) {
        TestCluster cluster = new TestCluster(new JoinList(clusterName), 0, journal, dataDir, customizer);
        List<Integer> ports = cluster.join.reserve(memberNames.length);
        for (int i = 0; i < memberNames.length; i++) {
            cluster.names.put(ports.get(i), memberNames[i]);
        }
        cluster.startAll(ports);
        return cluster;
    }

    /**
     * A durable cluster of {@code clusterSize} members ({@code partita.cluster-size}), none started yet: {@link
     * #addDurableMember} starts each, and returns once it serves (once a majority of the size is present).
     */
    public static TestCluster durable(String clusterName, Path dataDir, int clusterSize) {
        return durable(clusterName, dataDir, clusterSize, (name, config) -> { });
    }

    /** {@link #durable(String, Path, int)} with {@code customizer} adding to each member's configuration. */
    public static TestCluster durable(String clusterName, Path dataDir, int clusterSize,
                                      BiConsumer<String, Config> customizer) {
        return new TestCluster(new JoinList(clusterName), 0, TestProperties.journal(), dataDir, customizer,
                clusterSize);
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
        TestCluster cluster = new TestCluster(new JoinList(), cpMembers, journal, null, (name, config) -> { });
        cluster.startAll(cluster.join.reserve(size));
        return cluster;
    }

    private void startAll(List<Integer> ports) {
        List<Thread> starting = new ArrayList<>();
        for (int port : ports) {
            Thread thread = new Thread(() -> members.add(startMember(port)));
            thread.start();
            starting.add(thread);
        }
        starting.forEach(thread -> Blocking.run(thread::join));
        if (members.size() != ports.size()) {
            throw new IllegalStateException(ports.size() - members.size() + " of " + ports.size()
                    + " members failed to start (see the log)");
        }
        awaitSize(ports.size());
        awaitSafe();
    }

    /** Starts one more member that joins this cluster. */
    public HazelcastInstance addMember() {
        HazelcastInstance member = startMember(join.reserve());
        members.add(member);
        return member;
    }

    /** Starts one more durable member, {@code name} (its directory under the cluster's data directory). */
    public HazelcastInstance addDurableMember(String name) {
        int port = join.reserve();
        names.put(port, name);
        HazelcastInstance member = startMember(port);
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
        PartitaProperties properties = TestProperties.tcp(join.clusterName(), port, join.addresses(), cpMembers,
                journal);
        if (clusterSize > 0) {
            properties = TestProperties.withClusterSize(properties, clusterSize);
        }
        return dataDir == null ? properties : TestProperties.durable(properties, dataDir, names.get(port));
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

    /** Crashes every member at once, as {@code kill -9} of every node would. */
    public void crashAll() {
        // A copy that arrived or left within the last second may not be on its member's disk yet (the README's
        // "Known limits"): crash once every durable member's disk holds exactly the copies it holds.
        await("every disk holds the partitions its member holds").atMost(Duration.ofSeconds(60))
                .until(() -> members.stream().allMatch(m -> MemberLedger.of(m).diskSettled()));
        List<Thread> crashes = new ArrayList<>();
        for (HazelcastInstance member : members()) {
            Thread crash = new Thread(() -> terminate(member));
            crash.start();
            crashes.add(crash);
        }
        crashes.forEach(thread -> Blocking.run(thread::join));
    }

    /** Waits until every durable member has put the data of its disk back into the cluster. */
    public void awaitRecovered() {
        try {
            await("every member put its disk back").atMost(Duration.ofSeconds(120))
                    .until(() -> members.stream().noneMatch(m -> MemberDisk.of(m).recovering()));
        } catch (ConditionTimeoutException e) {
            System.err.println(recoveryReport());
            throw e;
        }
    }

    /** What each member's recovery waits for, and where the threads doing Partita's work stand. */
    private String recoveryReport() {
        StringBuilder report = new StringBuilder("Recovery did not end.\n");
        for (HazelcastInstance member : members) {
            boolean running = member.getLifecycleService().isRunning();
            report.append(member.getName()).append(": running ").append(running);
            if (running) {
                report.append(", recovering ").append(MemberDisk.of(member).recovering())
                        .append(", majority ").append(HazelcastConfigs.majorityPresent(member))
                        .append(", a majority of the members its disk last saw ")
                        .append(MemberDisk.of(member).lastMembersPresent())
                        .append(", members ").append(member.getCluster().getMembers())
                        .append(", joining its disk ").append(MemberDisk.of(member).joining());
            }
            report.append('\n');
        }
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().startsWith("partita-disk-") || Arrays.stream(stack)
                    .anyMatch(frame -> frame.getClassName().startsWith("io.partita."))) {
                report.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
                Arrays.stream(stack).forEach(frame -> report.append("    at ").append(frame).append('\n'));
            }
        });
        return report.toString();
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
        Config config = HazelcastConfigs.memberConfig(properties(port), "http://127.0.0.1:0", AllFeatures.LIST);
        customizer.accept(names.get(port), config);
        return Members.start(config, AllFeatures.LIST);
    }

    @Override
    public void close() {
        members.forEach(member -> member.getLifecycleService().terminate());
        members.clear();
    }
}
