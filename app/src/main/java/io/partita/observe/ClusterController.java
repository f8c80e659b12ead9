package io.partita.observe;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.Partition;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.account.MemberLedger;
import io.partita.account.MergeConflicts;
import io.partita.account.MergeReport;
import io.partita.locking.CpMembership;
import io.partita.node.HazelcastConfigs;
import io.partita.node.MemberDisk;
import io.partita.node.Membership;
import io.partita.node.MembershipNotice;
import io.partita.node.PartitionSentinels;
import io.partita.web.ApiDocs;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.Principal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The cluster as this node sees it: members, who owns how many partitions, and the CP Subsystem's mode; the
 * partition table with entry counts, each node's share and rate, and the migrations since this node joined. The
 * dashboard polls these every second, so each answer is built from tables the member keeps and counts that
 * {@link PartitionViews} gathers at most twice a second.
 * <b>Threads:</b> Micronaut runs each route on the HTTP blocking pool, many requests at once; it keeps only final
 * references to singletons, each safe for concurrent readers ({@link PartitionViews} gathers for all of them,
 * {@link MigrationTracker} and {@link ClusterSafety} answer from what they last recorded).
 */
@Controller("/cluster")
class ClusterController {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterController.class);
    private static final int MAX_CONFLICTS_SHOWN = 1_000;

    private final HazelcastInstance hazelcast;
    private final MigrationTracker migrations;
    private final CpMembership cp;
    private final PartitionViews views;
    private final ClusterSafety safety;

    ClusterController(HazelcastInstance hazelcast, MigrationTracker migrations, CpMembership cp,
                      PartitionViews views, ClusterSafety safety) {
        this.hazelcast = hazelcast;
        this.safety = safety;
        this.migrations = migrations;
        this.cp = cp;
        this.views = views;
    }

    @Operation(operationId = "getCluster")
    @ApiResponse(responseCode = "200", description = "The cluster: members, partitions, safety, membership")
    // While the node stops (its member already gone), as every route of a stopping node answers.
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Get
    @ExecuteOn(TaskExecutors.BLOCKING)
    ClusterView cluster() {
        Map<UUID, Integer> owned = new HashMap<>();
        for (Partition partition : hazelcast.getPartitionService().getPartitions()) {
            Member owner = partition.getOwner();
            if (owner != null) {
                owned.merge(owner.getUuid(), 1, Integer::sum);
            }
        }
        Map<UUID, MemberSnapshot> snapshots = views.latest().byMember();
        Set<Member> present = hazelcast.getCluster().getMembers();
        Member oldest = present.iterator().next();
        List<MemberView> members = present.stream()
                .map(member -> {
                    MemberSnapshot snapshot = snapshots.get(member.getUuid());
                    return new MemberView(member.getUuid().toString(), address(member),
                            member.getAttribute(HazelcastConfigs.HTTP_URL_ATTRIBUTE), member.localMember(),
                            member.equals(oldest), owned.getOrDefault(member.getUuid(), 0),
                            snapshot == null ? null : snapshot.clockOffsetMillis());
                })
                .sorted(Comparator.comparing(MemberView::address))
                .toList();
        return new ClusterView(hazelcast.getConfig().getClusterName(), HazelcastConfigs.PARTITION_COUNT,
                safety.isSafe(), migrations.inFlight(), members, cp.view(),
                PartitionSentinels.of(hazelcast).lostPartitions(), Membership.of(hazelcast).view(),
                HazelcastConfigs.majorityPresent(hazelcast), ClockWatch.WARN_ABOVE.toMillis(), durability());
    }

    private DurabilityView durability() {
        MemberDisk disk = MemberDisk.of(hazelcast);
        MemberLedger ledger = MemberLedger.of(hazelcast);
        boolean waiting = disk.recovering() && !disk.lastMembersPresent();
        return new DurabilityView(disk.durability().name().toLowerCase(Locale.ROOT),
                disk.onDisk() ? disk.name() : null, disk.foundData(), disk.recovering(), ledger.recoveredAccounts(),
                ledger.recoveredEntries(), waiting ? List.copyOf(disk.lastMembers()) : null);
    }

    /**
     * Accepts that the lost partitions' data is gone for good (an admin's call: no disk and no side of a split will
     * bring it back): each gets its sentinel again, so its accounts answer 404 and may be opened anew, and a txId
     * sent again is applied as new. Logged with who asked; answers the partitions accepted.
     */
    @Operation(operationId = "acceptLoss")
    @ApiResponse(responseCode = "200", description = "The lost partitions whose loss was accepted")
    @Delete("/lost")
    @ExecuteOn(TaskExecutors.BLOCKING)
    LossAccepted acceptLoss(@Nullable Principal principal) {
        PartitionSentinels sentinels = PartitionSentinels.of(hazelcast);
        List<Integer> accepted = new ArrayList<>();
        for (int partition : sentinels.lostPartitions()) {
            if (sentinels.restore(partition)) {
                accepted.add(partition);
            }
        }
        String by = principal == null ? "anonymous" : principal.getName();
        LOG.warn("{} accepted the loss of partitions {}: their accounts start empty", by, accepted);
        return new LossAccepted(by, accepted);
    }

    /**
     * Declares the members this cluster misses gone for good (an admin's call: they crashed and will not return, or
     * their side of a network split is abandoned): every member takes the cluster as whole with the members present
     * now, so split-brain protection counts a majority of them and accounts' tails stop keeping what a merge would
     * need. Logged on every member with who asked, and shown under {@code membership.lastForgotten}.
     */
    @Operation(operationId = "forgetMissing")
    @ApiResponse(responseCode = "200", description = "The members forgotten")
    @Delete("/missing")
    @ExecuteOn(TaskExecutors.BLOCKING)
    Membership.Forgotten forgetMissing(@Nullable Principal principal) {
        return MembershipNotice.forgetMissing(hazelcast, principal == null ? "anonymous" : principal.getName());
    }

    /**
     * What network splits left behind: the accounts a merge left below their overdraft limit (both sides debited
     * them; their transactions are kept, as acknowledged), and what merges did on this node.
     */
    @Get("/merges")
    @ExecuteOn(TaskExecutors.BLOCKING)
    MergesView merges() {
        List<MergeConflicts.Conflict> conflicts = MergeConflicts.find(hazelcast, MAX_CONFLICTS_SHOWN + 1);
        MergeReport report = MemberLedger.of(hazelcast).merges();
        return new MergesView(conflicts.stream().limit(MAX_CONFLICTS_SHOWN).toList(),
                conflicts.size() > MAX_CONFLICTS_SHOWN,
                new NodeMergesView(report.accountsJoined(), report.transactionsAdded(), report.conflicts()));
    }

    /** All 271 partitions in id order: owner, backups and the accounts in each. */
    @Get("/partitions")
    @ExecuteOn(TaskExecutors.BLOCKING)
    List<PartitionViews.PartitionView> partitions() {
        return views.partitions();
    }

    /** Each member with its owned partitions and accounts and its node's transactions per second. */
    @Get("/nodes")
    @ExecuteOn(TaskExecutors.BLOCKING)
    List<PartitionViews.NodeView> nodes() {
        return views.nodes();
    }

    /** The whole cluster's migrations since this node joined, with the most recent ones and their durations. */
    @Get("/migrations")
    MigrationTracker.MigrationsView migrations() {
        return migrations.view();
    }

    static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    /**
     * @param lostPartitions       partitions that lost every copy of their data: their accounts answer 503
     *                             partition-lost
     * @param membership           the cluster as this node last saw it whole, and the members it misses
     * @param majorityHeardFrom    whether this node hears from a majority of it (split-brain protection; true when
     *                             the protection is off)
     * @param clockWarnAboveMillis a node logs a warning while its clock is further than this from the cluster's time
     */
    @Serdeable
    record ClusterView(String clusterName, int partitionCount, boolean clusterSafe, int migrationsInFlight,
                       List<MemberView> members, CpMembership.View cp, List<Integer> lostPartitions,
                       Membership.View membership, boolean majorityHeardFrom, long clockWarnAboveMillis,
                       DurabilityView durability) {
    }

    /**
     * This node's disk ({@code partita.durability}).
     *
     * @param mode              memory, flush or fsync
     * @param member            its subdirectory under the data directory; null in memory mode
     * @param foundData         whether it found data there at start
     * @param recovering        whether it is still putting that data back (readiness is DOWN meanwhile)
     * @param recoveredAccounts accounts it put back
     * @param recoveredEntries  journal entries it put back
     * @param waitingForMembers while its recovery waits for a majority of them to be present, the members its disk
     *                          last recorded (by member name); absent otherwise
     */
    @Serdeable
    record DurabilityView(String mode, @Nullable String member, boolean foundData, boolean recovering,
                          long recoveredAccounts, long recoveredEntries,
                          @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<String> waitingForMembers) {
    }

    /**
     * @param partitions the partitions whose loss was accepted; their accounts start empty. Always there, empty when no
     *                   partition was lost
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record LossAccepted(String by, List<Integer> partitions) {
    }

    /**
     * @param conflicts the accounts a merge left below their overdraft limit, by id (at most 1,000)
     * @param truncated whether there are more
     * @param node      what merges did on this node since it started
     */
    @Serdeable
    record MergesView(List<MergeConflicts.Conflict> conflicts, boolean truncated, NodeMergesView node) {
    }

    /**
     * @param accountsJoined    accounts both sides held, joined here
     * @param transactionsAdded transactions only the other side had recorded, added to them
     * @param conflicts         joins that left an account below its overdraft limit
     */
    @Serdeable
    record NodeMergesView(long accountsJoined, long transactionsAdded, long conflicts) {
    }

    /**
     * @param oldest            whether this is the cluster's oldest member: it wins an even split, and its clock is the
     *                          cluster's time
     * @param clockOffsetMillis how far the member's wall clock is ahead of the cluster's time; null until it answered
     */
    @Serdeable
    record MemberView(String uuid, String address, @Nullable String httpUrl, boolean local, boolean oldest,
                      int ownedPartitions,
                      @Nullable Long clockOffsetMillis) {
    }
}
