package io.partita.node;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import io.partita.store.Durability;

import java.time.Duration;
import java.util.List;

/**
 * Everything a node is configured with, under {@code partita.*} in {@code application.yml}; every key can also be
 * set by environment variable ({@code partita.cp.members} = {@code PARTITA_CP_MEMBERS}). Defaults live in
 * {@code application.yml}, so this record is the single typed view of them and {@link HazelcastConfigs} turns it
 * into a Hazelcast {@code Config}.
 *
 * @param clusterName      members only join a cluster of the same name
 * @param discovery        how members find each other
 * @param members          the member list for {@link Discovery#TCP}: {@code host} or {@code host:port}
 * @param kubernetes       the headless service looked up for {@link Discovery#KUBERNETES}
 * @param network          where the member listens for other members
 * @param minClusterSize   readiness stays DOWN until at least this many members have joined
 * @param heartbeatTimeout a member silent for this long is removed and its partitions are taken over
 * @param httpUrl          the URL other nodes and clients reach this node's HTTP API on; derived when blank
 * @param cp               the CP Subsystem (FencedLock)
 * @param processing       the default processing path
 * @param journal          how long journal entries (and so the duplicate check of a txId) are kept
 * @param transfers        when unfinished transfers are recovered
 * @param requestTimeout   the longest a transaction waits for the member that holds its data before it answers 503
 *                         with Retry-After (the client retries with the same id; the first attempt may have landed)
 * @param splitBrainProtection 0 (the default): a member serves the ledger, jobs and schedules while it hears from a
 *                         majority of the cluster it last saw whole (see {@link Membership}); 1 turns the protection
 *                         off; more requires that many members heard from
 * @param clusterSize      optional: the members this cluster is meant to have, 0 (the default) to take it from the
 *                         members seen. When set, the cluster's size when whole is never taken below it
 * @param backupCount      synchronous backups of every map (1 to 3); 2 keeps every partition through the loss of any
 *                         two members, for clusters of 5 or more
 * @param partitionGroup   which members may not hold two copies of one partition
 * @param durability       {@code flush} (the default): an acknowledged transaction is written to the owner's and the
 *                         backup's disk (handed to the OS) first, and a restart of the whole cluster finds it;
 *                         {@code fsync}: also synced first; {@code memory}: nothing on disk ({@link MemberDisk})
 * @param dataDir          where the members started from this working directory keep their data, one subdirectory
 *                         each
 * @param memberName       this member's subdirectory under {@code dataDir}, the same across its restarts; empty:
 *                         the member's address and port ({@code 127.0.0.1_5701})
 */
@ConfigurationProperties("partita")
public record PartitaProperties(
        @NotBlank @Pattern(regexp = "[A-Za-z0-9._-]{1,64}") String clusterName,
        @NotNull Discovery discovery,
        @Nullable List<String> members,
        @Valid @NotNull Kubernetes kubernetes,
        @Valid @NotNull Network network,
        @Min(1) @Max(1000) int minClusterSize,
        @NotNull Duration heartbeatTimeout,
        @Nullable String httpUrl,
        @Valid @NotNull Cp cp,
        @Valid @NotNull Processing processing,
        @Valid @NotNull Journal journal,
        @Valid @NotNull Transfers transfers,
        @NotNull Duration requestTimeout,
        @Min(0) @Max(1000) int splitBrainProtection,
        @Min(0) @Max(1000) int clusterSize,
        @Min(1) @Max(3) int backupCount,
        @Valid @NotNull PartitionGroup partitionGroup,
        @NotNull Durability durability,
        @NotBlank String dataDir,
        @Nullable @Pattern(regexp = "[A-Za-z0-9._-]{0,64}") String memberName) {

    public enum Discovery { MULTICAST, TCP, KUBERNETES }

    /** Failure domains a partition's copies are kept apart across. */
    public enum GroupType { NONE, HOST, ZONE }

    /**
     * @param type {@code none}: a partition's copies go to any two members; {@code host}: never two on one host
     *             address; {@code zone}: never two in one zone
     * @param zone this member's zone with {@code type: zone} (a cloud zone, a rack, or a Kubernetes node name)
     */
    @Introspected
    @ConfigurationProperties("partition-group")
    public record PartitionGroup(@NotNull GroupType type,
                                 @Nullable @Pattern(regexp = "[A-Za-z0-9._-]{0,64}") String zone) {
    }

    /** @param serviceDns the DNS name of the headless service whose A records are the members */
    @Introspected
    @ConfigurationProperties("kubernetes")
    public record Kubernetes(@Nullable String serviceDns) {
    }

    /**
     * @param host             the address (or Hazelcast wildcard such as {@code 10.0.*.*}) the member binds to;
     *                         {@code any} lets Hazelcast pick. Defaults to loopback, the safe choice on one machine.
     * @param port             the first member port tried; the next ones are tried when it is taken
     * @param multicastGroup   the multicast group for {@link Discovery#MULTICAST}
     * @param multicastPort    the multicast port for {@link Discovery#MULTICAST}
     */
    @Introspected
    @ConfigurationProperties("network")
    public record Network(@NotBlank String host,
                          @Min(1) @Max(65535) int port,
                          @NotBlank String multicastGroup,
                          @Min(1) @Max(65535) int multicastPort) {
    }

    /**
     * @param members              CP members; 0 runs FencedLock in unsafe mode (one dev node), 3 to 7 run Raft
     * @param sessionTtl           a crashed lock holder's session, and with it its locks, expires after this long
     * @param lockTimeout          how long a locked-mode request waits for an account's lock before it answers 503
     * @param missingMemberRemoval a CP member gone from the cluster this long is removed from the CP Subsystem, and
     *                             another member is promoted in its place
     */
    @Introspected
    @ConfigurationProperties("cp")
    public record Cp(@Min(0) @Max(7) int members, @NotNull Duration sessionTtl, @NotNull Duration lockTimeout,
                     @NotNull Duration missingMemberRemoval) {
    }

    /**
     * @param recoveryAfter a partitioned-mode transfer still unfinished this long after it began is completed by the
     *                      recovery pass of the member that owns its record
     */
    @Introspected
    @ConfigurationProperties("transfers")
    public record Transfers(@NotNull Duration recoveryAfter) {
    }

    /** @param mode the path a transaction takes when the request does not name one */
    @Introspected
    @ConfigurationProperties("processing")
    public record Processing(@NotNull ProcessingMode mode) {
    }

    /**
     * @param retention     journal entries live this long; a txId retried later than this is new again
     * @param flushBatch    the journal writer writes a partition's entries once this many wait ...
     * @param flushDelay    ... or once the oldest has waited this long
     * @param sweepInterval how often tail entries the journal should hold by now are looked for (after a failover)
     * @param memoryRetention how long the journal map (and the SQL {@code journal} view) keeps entries when members
     *                        keep the journal on disk, which keeps them for the whole {@code retention}; in memory
     *                        mode the map keeps them for the whole retention
     */
    @Introspected
    @ConfigurationProperties("journal")
    public record Journal(@NotNull Duration retention, @Min(1) @Max(100_000) int flushBatch,
                          @NotNull Duration flushDelay, @NotNull Duration sweepInterval,
                          @NotNull Duration memoryRetention) {
    }

    public List<String> members() {
        return members == null ? List.of() : members;
    }
}
