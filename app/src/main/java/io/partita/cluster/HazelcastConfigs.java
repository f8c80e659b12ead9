package io.partita.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.IndexConfig;
import com.hazelcast.config.IndexType;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MergePolicyConfig;
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
import io.partita.account.AccountMergePolicy;
import io.partita.account.JournalMergePolicy;
import io.partita.account.JournalSettings;
import io.partita.job.JobMergePolicy;
import io.partita.job.ScheduleMergePolicy;
import io.partita.transfer.TransferMergePolicy;

/**
 * The one place that knows Hazelcast's {@link Config}: it is built in code from {@link PartitaProperties}, never from
 * XML, so that the node and the multi-member tests start members the same way.
 */
public final class HazelcastConfigs {

    /** Fixed for the life of a cluster: a prime well above any node count, so a join moves only a share of them. */
    public static final int PARTITION_COUNT = 271;
    /** The member attribute that carries the node's HTTP URL, read by {@code GET /cluster}. */
    public static final String HTTP_URL_ATTRIBUTE = "partita.http-url";
    /** Threads per member that run the per-partition tasks of jobs. */
    public static final int JOB_THREADS = 4;
    /** Binds the member to no particular interface and lets Hazelcast choose one. */
    public static final String ANY_INTERFACE = "any";
    /** The executor that gathers every member's view of its own partitions ({@code GET /cluster/partitions}). */
    public static final String VIEWS_EXECUTOR = "partita.views";

    /** The split-brain protection of the ledger, jobs and schedules. */
    private static final String PROTECTION = "partita-majority";
    /** Entries a merge sends per operation. */
    private static final int MERGE_BATCH = 100;
    private static final long LEADER_HEARTBEAT_MILLIS = 1_000;
    private static final int MISSED_LEADER_HEARTBEATS = 5;

    private HazelcastConfigs() {
    }

    public static Config memberConfig(PartitaProperties properties, String httpUrl) {
        Config config = new Config();
        config.setClusterName(properties.clusterName());
        config.setProperty(ClusterProperty.PARTITION_COUNT.getName(), String.valueOf(PARTITION_COUNT));
        config.setProperty(ClusterProperty.LOGGING_TYPE.getName(), "slf4j");
        config.setProperty(ClusterProperty.PHONE_HOME_ENABLED.getName(), "false");
        // A backup that does not acknowledge turns into an IndeterminateOperationStateException, which the API
        // answers with a retryable 503, instead of a success that one crash could undo.
        config.setProperty(ClusterProperty.FAIL_ON_INDETERMINATE_OPERATION_STATE.getName(), "true");
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
        // Views are cheap reads answered on a small pool of their own, apart from the default executor.
        config.getExecutorConfig(VIEWS_EXECUTOR).setPoolSize(2).setStatisticsEnabled(false);
        config.getMemberAttributeConfig().setAttribute(HTTP_URL_ATTRIBUTE, httpUrl);

        network(config, properties);
        partitionGroups(config, properties.partitionGroup());
        String protection = protection(config, properties);
        maps(config, properties, protection);
        jobs(config, protection, properties.backupCount());
        leases(config, protection, properties.backupCount());
        cpSubsystem(config, properties.cp());
        // Batch slices wait on their local operations, so the pool is sized for waiting, not for cores.
        config.addExecutorConfig(new ExecutorConfig(Maps.BATCH_EXECUTOR).setPoolSize(16).setQueueCapacity(10_000));
        Serialization.register(config.getSerializationConfig());
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
     * Split-brain protection for the ledger, jobs and schedules: the name of a protection that needs
     * {@link PartitaProperties#requiredMembers()} members heard from within 3/5 of the heartbeat timeout (three
     * heartbeats), or null when it is off. Counting the members heard from, not the member list, is what stops a
     * minority in time: a member that loses the master must also claim mastership before the others are removed from
     * its list, which took another 10 s in the network-split test; their heartbeats stop arriving at once. And it
     * stops well before the others are removed: an operation that was waiting for a backup on the other side
     * completes as a success when that member is removed, and by then this member already refuses to acknowledge it
     * ({@link #majorityPresent}).
     */
    private static String protection(Config config, PartitaProperties properties) {
        int required = properties.requiredMembers();
        if (required < 2) {
            return null;
        }
        config.addSplitBrainProtectionConfig(SplitBrainProtectionConfig
                .newRecentlyActiveSplitBrainProtectionConfigBuilder(PROTECTION, required,
                        (int) (properties.heartbeatTimeout().toMillis() * 3 / 5))
                .enabled(true).build()
                .setProtectOn(SplitBrainProtectionOn.READ_WRITE));
        return PROTECTION;
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

    private static void maps(Config config, PartitaProperties properties, String protection) {
        /*
         * A member that was paused (or cut off) past the heartbeat timeout is removed; when it runs again it forms a
         * cluster of its own until the split-brain merge brings it back, holding stale copies of some partitions and
         * none of the others. With split-brain protection on, it refuses every read and write of the ledger then
         * (SplitBrainProtectionException, a 503), so it neither answers stale balances nor takes writes that the
         * merge would drop. The merge joins both sides' accounts transaction by transaction (AccountMergePolicy),
         * takes the smaller side's journal only where this side lost the partition (JournalMergePolicy), and keeps
         * this side's sentinels (PartitionSentinels restores the rest once the merge is done).
         */
        int backups = properties.backupCount();
        // Accounts and journal entries are kept as objects: a transaction's entry processor then neither decodes nor
        // encodes the account (it replaces an immutable value), and a journal entry costs about 56 bytes of value
        // instead of about 88 serialized. Neither map has an index (an entry processor would then get a copy) nor a
        // time to live (the journal writer deletes expired entries; an expiry record per entry cost about 70 bytes).
        config.addMapConfig(new MapConfig(Maps.ACCOUNTS)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setSplitBrainProtectionName(protection)
                .setMergePolicyConfig(new MergePolicyConfig(AccountMergePolicy.class.getName(), MERGE_BATCH))
                .setBackupCount(backups)
                .setAsyncBackupCount(0));
        config.addMapConfig(new MapConfig(Maps.JOURNAL)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setSplitBrainProtectionName(protection)
                .setMergePolicyConfig(new MergePolicyConfig(JournalMergePolicy.class.getName(), MERGE_BATCH))
                .setBackupCount(backups)
                .setAsyncBackupCount(0));
        // Lost exactly when a partition's data is lost (PartitionSentinels): the same backups as the ledger. A merge
        // never brings a sentinel into a partition this side lost, so that the other maps' policies can still tell.
        config.addMapConfig(new MapConfig(Maps.SENTINELS)
                .setInMemoryFormat(InMemoryFormat.OBJECT)
                .setMergePolicyConfig(new MergePolicyConfig(DiscardMergePolicy.class.getName(), MERGE_BATCH))
                .setBackupCount(backups)
                .setAsyncBackupCount(0));
        PartitaProperties.Journal journal = properties.journal();
        // A member cut off by a network split notices after the heartbeat timeout; tails hold twice that, so that what
        // it recorded meanwhile is still in its accounts when the two sides merge.
        new JournalSettings(journal.retention(), journal.flushBatch(), journal.flushDelay(), journal.sweepInterval(),
                properties.clusterSize(), properties.heartbeatTimeout().multipliedBy(2)).putInto(config);
        // A transfer's record, found by state for recovery. Its time to live is set per entry by the transfer
        // processors: none while unfinished, the journal retention plus an hour once finished.
        // Transfer records merge by state: the further side's record of a transfer is kept.
        config.addMapConfig(new MapConfig(Maps.TRANSFERS)
                .setSplitBrainProtectionName(protection)
                .setMergePolicyConfig(new MergePolicyConfig(TransferMergePolicy.class.getName(), MERGE_BATCH))
                .setBackupCount(backups)
                .setAsyncBackupCount(0)
                .addIndexConfig(new IndexConfig(IndexType.HASH, "state")));
    }

    /**
     * Jobs and schedules: their maps keep one synchronous backup like the ledger's, so a job's progress and a
     * schedule's last firing survive the loss of a member. The job executor's threads mostly wait on entry processors
     * at the partition threads, so a few per member keep every partition thread busy without crowding out traffic.
     */
    private static void jobs(Config config, String protection, int backups) {
        // Every member looks up the RUNNING jobs among its own entries at each tick of its job runner. The minority
        // side of a split neither starts, advances nor fires anything (split-brain protection); the merge takes what
        // only the other side holds and keeps this side's copy of the rest.
        // After a split: no job lost or set back (JobMergePolicy), no firing run twice (ScheduleMergePolicy).
        config.addMapConfig(new MapConfig(Maps.JOBS).setBackupCount(backups).setAsyncBackupCount(0)
                .setSplitBrainProtectionName(protection)
                .setMergePolicyConfig(new MergePolicyConfig(JobMergePolicy.class.getName(), MERGE_BATCH))
                .addIndexConfig(new IndexConfig(IndexType.HASH, "state")));
        config.addMapConfig(new MapConfig(Maps.JOB_GUARDS).setBackupCount(backups).setAsyncBackupCount(0)
                .setSplitBrainProtectionName(protection));
        config.addMapConfig(new MapConfig(Maps.SCHEDULES).setBackupCount(backups).setAsyncBackupCount(0)
                .setSplitBrainProtectionName(protection)
                .setMergePolicyConfig(new MergePolicyConfig(ScheduleMergePolicy.class.getName(), MERGE_BATCH)));
        config.addExecutorConfig(new ExecutorConfig(Maps.JOB_EXECUTOR).setPoolSize(JOB_THREADS));
    }

    /**
     * Worker lease groups: one entry per group, changed only by its entry processors, with the ledger's backups. The
     * minority side of a split grants nothing (split-brain protection), so after the heal the majority's copy of a
     * group both sides hold is the one that counts (PutIfAbsent keeps the existing entry), and a group only the
     * minority held comes back.
     */
    private static void leases(Config config, String protection, int backups) {
        config.addMapConfig(new MapConfig(Maps.LEASE_GROUPS).setBackupCount(backups).setAsyncBackupCount(0)
                .setSplitBrainProtectionName(protection)
                .setMergePolicyConfig(new MergePolicyConfig(PutIfAbsentMergePolicy.class.getName(), MERGE_BATCH)));
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
