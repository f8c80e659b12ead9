package io.partita.locking;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cp.CPMember;
import com.hazelcast.cp.CPSubsystemManagementService;
import com.hazelcast.cp.event.CPMembershipEvent;
import com.hazelcast.cp.event.CPMembershipListener;
import io.micronaut.context.annotation.Context;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.node.PartitaProperties;
import io.partita.node.Timers;
import jakarta.annotation.PreDestroy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Keeps the CP Subsystem at its configured number of members, and tells {@code GET /cluster} what it really is.
 * <b>Threads:</b> CP membership events arrive on Hazelcast's event threads and only wake this bean's one scheduler
 * thread ("partita-cp-membership"), which also checks every {@link #CHECK_PERIOD} (a member that joins after a
 * removal, a promotion that failed); only that thread asks and promotes, and what {@code GET /cluster} reads from any
 * thread is kept in volatile fields.
 *
 * <p>Why: Hazelcast removes a crashed CP member after {@code partita.cp.missing-member-removal}, and its Raft groups
 * shrink: with 3 CP members, one crash leaves groups of 2, which a second crash stops cold (no majority). Promoting
 * another member in its place brings the groups back to 3, so a later second crash still leaves a majority.
 *
 * <p>The check asks the CP Subsystem for its members (a Raft query); if there are fewer than configured, the oldest
 * member that is not a CP member promotes itself ({@code promoteToCPMember} can only promote the local member). Every
 * member computes the same candidate from the same member list, so normally one promotes; if lists differ for a moment
 * and two promote, the CP Subsystem simply has one member more than configured, which is safe. With no candidate (all
 * members are CP members already), it logs that a new node is needed; the next node to join is promoted.
 */
@Context
public class CpMembership implements CPMembershipListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CpMembership.class);
    static final Duration CHECK_PERIOD = Duration.ofSeconds(5);
    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(3);

    private final HazelcastInstance hazelcast;
    private final int configured;
    private final ScheduledExecutorService scheduler;
    private volatile int lastKnownMembers;
    private volatile boolean warnedShort;

    CpMembership(HazelcastInstance hazelcast, PartitaProperties properties) {
        this.hazelcast = hazelcast;
        this.configured = properties.cp().members();
        this.lastKnownMembers = configured;
        if (configured == 0) {
            this.scheduler = null;
            return;
        }
        this.scheduler = Timers.single("partita-cp-membership");
        hazelcast.getCPSubsystem().addMembershipListener(this);
        scheduler.scheduleWithFixedDelay(this::check, CHECK_PERIOD.toMillis(), CHECK_PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void memberAdded(CPMembershipEvent event) {
        LOG.info("CP member added: {}", event.getMember().getAddress());
    }

    @Override
    public void memberRemoved(CPMembershipEvent event) {
        LOG.info("CP member removed: {}; checking whether to promote a member in its place",
                event.getMember().getAddress());
        scheduler.execute(this::check);
    }

    /** Promotes this member if the CP Subsystem is short of members and this member is the one to step up. */
    void check() {
        try {
            CPSubsystemManagementService management = hazelcast.getCPSubsystem().getCPSubsystemManagementService();
            if (!hazelcast.getLifecycleService().isRunning() || !management.isDiscoveryCompleted()) {
                return;
            }
            Collection<CPMember> members = cpMembers(management).orElse(null);
            if (members == null || members.size() >= configured) {
                warnedShort = false;
                return;
            }
            Set<Address> cpAddresses = members.stream().map(CPMember::getAddress).collect(Collectors.toSet());
            Optional<Member> candidate = hazelcast.getCluster().getMembers().stream()
                    .filter(member -> !member.isLiteMember() && !cpAddresses.contains(member.getAddress()))
                    .findFirst();
            if (candidate.isEmpty()) {
                if (!warnedShort) {
                    LOG.warn("The CP Subsystem has {} of {} members and no other member to promote: one more CP "
                            + "member crash loses its majority. Start another node; it will be promoted.",
                            members.size(), configured);
                    warnedShort = true;
                }
                return;
            }
            if (candidate.get().localMember()) {
                LOG.info("The CP Subsystem has {} of {} members: promoting this member", members.size(), configured);
                management.promoteToCPMember().toCompletableFuture().get(30, TimeUnit.SECONDS);
                LOG.info("This member is now a CP member");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("CP membership check failed; it runs again in {} s: {}", CHECK_PERIOD.toSeconds(), e.toString());
        }
    }

    /** The CP members as the CP Subsystem's metadata group reports them; empty when it does not answer in time. */
    private Optional<Collection<CPMember>> cpMembers(CPSubsystemManagementService management) {
        try {
            Collection<CPMember> members = management.getCPMembers().toCompletableFuture()
                    .get(QUERY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            lastKnownMembers = members.size();
            return Optional.of(members);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    /**
     * The CP Subsystem as it runs: RAFT with the members its metadata group reports now (the last known count, with
     * {@code available} false, when it cannot answer: no majority, or discovery not completed yet), or UNSAFE.
     */
    public View view() {
        if (configured == 0) {
            return new View("UNSAFE", 0, 0, true, false);
        }
        CPSubsystemManagementService management = hazelcast.getCPSubsystem().getCPSubsystemManagementService();
        Optional<Collection<CPMember>> members = management.isDiscoveryCompleted()
                ? cpMembers(management) : Optional.empty();
        boolean local = hazelcast.getCPSubsystem().getLocalCPMember() != null;
        return new View("RAFT", members.map(Collection::size).orElse(lastKnownMembers),
                configured, members.isPresent(), local);
    }

    @PreDestroy
    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }

    /**
     * @param mode       RAFT (CP members run Raft groups) or UNSAFE (no Raft: lock state in ordinary partitions)
     * @param members    the CP members now (0 in unsafe mode)
     * @param configured {@code partita.cp.members}
     * @param available  whether the CP Subsystem answered just now; when not, {@code members} is the last known count
     * @param local      whether this node is a CP member
     */
    @Serdeable
    public record View(String mode, int members, int configured, boolean available, boolean local) {
    }
}
