package io.partita.node;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ListenerConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.PartitionGroupConfig;
import com.hazelcast.config.SplitBrainProtectionConfig;
import com.hazelcast.config.cp.CPSubsystemConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.merge.DiscardMergePolicy;
import com.hazelcast.spi.merge.PutIfAbsentMergePolicy;
import com.hazelcast.spi.partitiongroup.PartitionGroupMetaData;
import com.hazelcast.spi.properties.ClusterProperty;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionOn;

import java.time.Duration;
import java.util.List;

/**
 * The one place that builds a member's Hazelcast {@link Config}: in code from {@link PartitaProperties}, never from
 * XML, so that the node and the multi-member tests start members the same way. It sets the member-wide parts
 * (network, discovery, partition groups, split-brain protection, CP Subsystem, serialization); each {@link Feature}
 * adds its own maps and executors.
 */
public final class HazelcastConfigs {

    /** Fixed for the life of a cluster: a prime well above any node count, so a join moves only a share of them. */
    public static final int PARTITION_COUNT = 271;
    /** The most a migration message carries, in MB; see {@link #memberConfig}. */
    static final int MIGRATION_CHUNK_MB = 8;
    /** The member attribute that carries the node's HTTP URL, read by {@code GET /cluster}. */
    public static final String HTTP_URL_ATTRIBUTE = "partita.http-url";
    /** Binds the member to no particular interface and lets Hazelcast choose one. */
    public static final String ANY_INTERFACE = "any";

    /** The split-brain protection of the ledger, jobs and schedules. */
    private static final String PROTECTION = "partita-majority";
    private static final long LEADER_HEARTBEAT_MILLIS = 1_000;
    private static final int MISSED_LEADER_HEARTBEATS = 5;

    private HazelcastConfigs() {
    }

    public static Config memberConfig(PartitaProperties properties, String httpUrl, List<? extends Feature> features) {
        Config config = new Config();
        config.setClusterName(properties.clusterName());
        config.setProperty(ClusterProperty.PARTITION_COUNT.getName(), String.valueOf(PARTITION_COUNT));
        config.setProperty(ClusterProperty.LOGGING_TYPE.getName(), "slf4j");
        config.setProperty(ClusterProperty.PHONE_HOME_ENABLED.getName(), "false");
        // A backup that does not acknowledge turns into an IndeterminateOperationStateException, which the API
        // answers with a retryable 503, instead of a success that one crash could undo.
        config.setProperty(ClusterProperty.FAIL_ON_INDETERMINATE_OPERATION_STATE.getName(), "true");
        // A partition's data, its disk share included, migrates in messages of about this many MB, one after the other
        // (Hazelcast's default, 250 MB a message, with up to 10 migrations at once, would not fit a 1 GiB heap). The
        // master's setting applies to every migration it runs.
        config.setProperty(ClusterProperty.PARTITION_CHUNKED_MAX_MIGRATING_DATA_IN_MB.getName(),
                String.valueOf(MIGRATION_CHUNK_MB));
        // Ctrl-C or SIGTERM hands this member's partitions to the others before the process exits.
        config.setProperty(ClusterProperty.SHUTDOWNHOOK_POLICY.getName(), "GRACEFUL");
        long heartbeatTimeout = Math.max(5, properties.heartbeatTimeout().toSeconds());
        config.setProperty(ClusterProperty.MAX_NO_HEARTBEAT_SECONDS.getName(), String.valueOf(heartbeatTimeout));
        config.setProperty(ClusterProperty.HEARTBEAT_INTERVAL_SECONDS.getName(),
                String.valueOf(Math.max(1, heartbeatTimeout / 5)));
        // A removed member that runs again (after a pause) finds the cluster and merges back within seconds rather
        // than the default five minutes; until then split-brain protection keeps it from serving the ledger.
        config.setProperty(ClusterProperty.MERGE_FIRST_RUN_DELAY_SECONDS.getName(), "10");
        config.setProperty(ClusterProperty.MERGE_NEXT_RUN_DELAY_SECONDS.getName(), "10");
        // SQL runs on the Jet engine, so Jet is on; uploading code or files to it is not, so nothing a client sends
        // can become a class or a resource on a member (POST /sql also refuses anything but a SELECT).
        config.getJetConfig().setEnabled(true).setResourceUploadEnabled(false);
        config.getMemberAttributeConfig().setAttribute(HTTP_URL_ATTRIBUTE, httpUrl);

        network(config, properties);
        partitionGroups(config, properties.partitionGroup());
        Membership membership = new Membership(heardWindow(properties), properties.journal().retention(),
                properties.clusterSize());
        config.getUserContext().put(Membership.USER_CONTEXT_KEY, membership);
        config.addListenerConfig(new ListenerConfig(membership));
        config.getExecutorConfig(MembershipNotice.EXECUTOR).setPoolSize(1).setStatisticsEnabled(false);
        MemberDisk.configure(config, properties);
        DiskShares.register(config, properties.backupCount());
        Feature.Setup setup = new Feature.Setup(properties, protection(config, properties, membership));
        // Which members found data on their disks at start (MemberDisk): a member with none starts a new ledger only
        // if no member has any.
        config.addMapConfig(setup.map(MemberDisk.DISKS, PutIfAbsentMergePolicy.class));
        // Lost exactly when a partition's data is lost (PartitionSentinels): the same backups as the ledger. A merge
        // never brings a sentinel into a partition this side lost, so that the other maps' policies can still tell.
        config.addMapConfig(setup.map(PartitionSentinels.MAP, DiscardMergePolicy.class)
                .setInMemoryFormat(InMemoryFormat.OBJECT));
        features.forEach(feature -> feature.configure(config, setup));
        cpSubsystem(config, properties.cp());
        Serialization.register(config.getSerializationConfig(), features);
        JavaSerializationFilters.allowListOnly(config.getSerializationConfig());
        return config;
    }

    private static void network(Config config, PartitaProperties properties) {
        NetworkConfig network = config.getNetworkConfig();
        PartitaProperties.Network settings = properties.network();
        network.setPort(settings.port()).setPortAutoIncrement(true).setPortCount(100);
        if (!ANY_INTERFACE.equalsIgnoreCase(settings.host())) {
            network.getInterfaces().setEnabled(true).addInterface(settings.host());
            // Listen only there too: a node told to stay on loopback must not accept members from elsewhere.
            config.setProperty(ClusterProperty.SOCKET_BIND_ANY.getName(), "false");
        }
        JoinConfig join = network.getJoin();
        join.getAutoDetectionConfig().setEnabled(false);
        join.getMulticastConfig().setEnabled(false);
        switch (properties.discovery()) {
            case MULTICAST -> join.getMulticastConfig()
                    .setEnabled(true)
                    .setMulticastGroup(settings.multicastGroup())
                    .setMulticastPort(settings.multicastPort())
                    .setLoopbackModeEnabled(true);
            case TCP -> join.getTcpIpConfig().setEnabled(true).setMembers(properties.members());
            case KUBERNETES -> {
                String serviceDns = properties.kubernetes().serviceDns();
                if (serviceDns == null || serviceDns.isBlank()) {
                    throw new IllegalArgumentException(
                            "partita.kubernetes.service-dns (PARTITA_KUBERNETES_SERVICE_DNS) is required "
                                    + "when partita.discovery is kubernetes");
                }
                join.getKubernetesConfig().setEnabled(true).setProperty("service-dns", serviceDns);
            }
            default -> throw new IllegalStateException("Unknown discovery " + properties.discovery());
        }
    }

    /**
     * Keeps a partition's copies apart across failure domains: with {@code host}, never two on one host address (one
     * machine running two nodes); with {@code zone}, never two in one zone, which each member names in its attributes
     * (Hazelcast's ZONE_AWARE groups read it there). Losing one host or zone then loses no partition.
     */
    private static void partitionGroups(Config config, PartitaProperties.PartitionGroup group) {
        switch (group.type()) {
            case NONE -> {
            }
            case HOST -> config.getPartitionGroupConfig().setEnabled(true)
                    .setGroupType(PartitionGroupConfig.MemberGroupType.HOST_AWARE);
            case ZONE -> {
                if (group.zone() == null || group.zone().isBlank()) {
                    throw new IllegalArgumentException("partita.partition-group.zone (PARTITA_PARTITION_GROUP_ZONE) "
                            + "must name this member's zone when partita.partition-group.type is zone");
                }
                config.getPartitionGroupConfig().setEnabled(true)
                        .setGroupType(PartitionGroupConfig.MemberGroupType.ZONE_AWARE);
                config.getMemberAttributeConfig().setAttribute(PartitionGroupMetaData.PARTITION_GROUP_ZONE,
                        group.zone());
            }
        }
    }

    /**
     * Split-brain protection for the ledger, jobs and schedules, on unless {@code partita.split-brain-protection} is 1:
     * the name of a protection that needs a majority of the cluster as this member last saw it whole, or the
     * configured count of members, heard from within 3/5 of the heartbeat timeout (three heartbeats); see
     * {@link KeepMajority}. Counting the members heard from, not the member list, is what stops a minority in time: a
     * member that loses the master must also claim mastership before the others are removed from its list, which
     * took another 10 s in the network-split test; their heartbeats stop arriving at once. And it stops well before
     * the others are removed: an operation that was waiting for a backup on the other side completes as a success
     * when that member is removed, and by then this member already refuses to acknowledge it
     * ({@link #majorityPresent}).
     */
    private static String protection(Config config, PartitaProperties properties, Membership membership) {
        if (properties.splitBrainProtection() == 1) {
            return null;
        }
        config.addSplitBrainProtectionConfig(new SplitBrainProtectionConfig(PROTECTION, true, 2)
                .setFunctionImplementation(new KeepMajority(membership, properties.splitBrainProtection()))
                .setProtectOn(SplitBrainProtectionOn.READ_WRITE));
        return PROTECTION;
    }

    /** A member whose last heartbeat arrived longer ago than this is not heard from: 3/5 of the heartbeat timeout. */
    private static Duration heardWindow(PartitaProperties properties) {
        return Duration.ofMillis(Math.max(5, properties.heartbeatTimeout().toSeconds()) * 1000 * 3 / 5);
    }

    /**
     * Whether this member hears from enough members to serve the ledger: true when protection is off. An answer that
     * arrives once it is false is not acknowledged (it may have been applied only on this side of a split).
     */
    public static boolean majorityPresent(HazelcastInstance hazelcast) {
        SplitBrainProtectionConfig protection = hazelcast.getConfig().getSplitBrainProtectionConfigs().get(PROTECTION);
        if (protection != null && protection.isEnabled()) {
            return hazelcast.getSplitBrainProtectionService().getSplitBrainProtection(PROTECTION).hasMinimumSize();
        }
        return true;
    }

    /*
     * CP Subsystem (FencedLock). Hazelcast's defaults suit long-lived locks, not a lock per message: a crashed holder's
     * session lives 5 minutes, and with it every lock it held, so locked-mode traffic on its accounts would stall for
     * 5 minutes. Here the session lives partita.cp.session-ttl (10 s by default) after its last heartbeat and a
     * heartbeat is sent every fifth of that: a live member must miss four heartbeats in a row (a long GC pause, a
     * starved core) before it loses its locks, and a crashed one's locks are free seconds after it died. A holder
     * that does lose its session early cannot do harm: its writes carry a fence the account refuses (FencedWrite).
     *
     * Raft (members >= 3): a Raft follower notices a dead leader after maxMissedLeaderHeartbeatCount leader
     * heartbeats; the defaults (5 x 5 s) stall every lock for 25 s when the leader's member crashes, 1 s x 5 brings
     * that to about 5 s. A CP member missing from the cluster for partita.cp.missing-member-removal is removed from
     * the CP groups (Hazelcast requires this to be at least the session TTL); CpMembership then promotes another
     * member, so that a later second crash still leaves a majority. Unsafe mode (members = 0) keeps lock state in
     * ordinary partitions, without Raft: fine for one dev node, not a guarantee for a cluster.
     */
    private static void cpSubsystem(Config config, PartitaProperties.Cp cp) {
        int ttl = (int) Math.max(5, cp.sessionTtl().toSeconds());
        CPSubsystemConfig cpConfig = config.getCPSubsystemConfig()
                .setSessionTimeToLiveSeconds(ttl)
                .setSessionHeartbeatIntervalSeconds(Math.max(1, ttl / 5));
        if (cp.members() == 0) {
            return;
        }
        if (cp.members() < CPSubsystemConfig.MIN_GROUP_SIZE) {
            throw new IllegalArgumentException("partita.cp.members (PARTITA_CP_MEMBERS) must be 0 (unsafe mode, one "
                    + "dev node) or 3 to 7 (Raft), the same on every member; it is " + cp.members());
        }
        cpConfig.setCPMemberCount(cp.members())
                .setMissingCPMemberAutoRemovalSeconds((int) Math.max(ttl, cp.missingMemberRemoval().toSeconds()));
        cpConfig.getRaftAlgorithmConfig()
                .setLeaderHeartbeatPeriodInMillis(LEADER_HEARTBEAT_MILLIS)
                .setMaxMissedLeaderHeartbeatCount(MISSED_LEADER_HEARTBEATS);
    }
}
