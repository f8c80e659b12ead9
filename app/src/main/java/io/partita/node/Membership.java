package io.partita.node;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import com.hazelcast.cluster.InitialMembershipEvent;
import com.hazelcast.cluster.InitialMembershipListener;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.core.HazelcastInstance;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What this member has seen of the cluster's membership: how many members the cluster has when it is whole, and
 * which of them are missing, that is, were removed without saying they were leaving and so may be alive on the other
 * side of a network split. It needs no configured cluster size.
 *
 * <p>The rules, all from what this member observed:
 * <ul>
 *   <li>The cluster's size when whole ({@code expected}) grows with every member seen; a member that announced a
 *       graceful leave ({@link MembershipNotice}, sent as it starts shutting down, after which it hands its data over)
 *       takes it down by one when it is removed.</li>
 *   <li>A member removed without that notice (heartbeat timeout, suspicion, a crash, the far side of a split) is
 *       missing: the cluster is not whole until as many members are present as before, the missing ones back or new
 *       ones in their place, until an admin declares them gone ({@link #forgetMissing}), or until {@code bound} (the
 *       journal's retention: a merge has nothing older to keep) has passed since the first went missing.</li>
 *   <li>Split-brain protection ({@link #hasMajority}) keeps a side serving only while it hears from a majority of
 *       that size, as Akka's keep-majority does; an even split is won by the side that holds the oldest member of
 *       the whole cluster. Heartbeats are judged by when they arrive here, on this member's monotonic clock: no
 *       member's wall clock can make another look silent.</li>
 * </ul>
 *
 * <p><b>Threads:</b> membership events arrive on Hazelcast's event threads, notices on an executor thread,
 * heartbeats and protection checks on the split-brain protection's threads, and {@link #whole()} is read from
 * partition threads; the state is guarded by {@code this}, except the heartbeat arrivals (a concurrent map) and the
 * volatile summary {@link #whole()} reads.
 */
public final class Membership implements InitialMembershipListener {

    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);
    static final String USER_CONTEXT_KEY = "partita.membership";

    private final long windowNanos;
    private final long boundNanos;
    private final int sizeOverride;
    private final LongSupplier nanos;

    /** When each member's last heartbeat (or its join) arrived here, by this member's monotonic clock. */
    private final Map<UUID, Long> heardAt = new ConcurrentHashMap<>();
    /** Each member's age: the member list version it joined at (lower is older), the same on every member. */
    @GuardedBy("this")
    private final Map<UUID, Long> rank = new HashMap<>();
    @GuardedBy("this")
    private final Map<UUID, Missing> missing = new LinkedHashMap<>();
    @GuardedBy("this")
    private final Set<UUID> leaving = new HashSet<>();
    @GuardedBy("this")
    private List<Member> current = List.of();
    @GuardedBy("this")
    private long nextRank;
    @GuardedBy("this")
    private int expected = 1;
    @GuardedBy("this")
    private Forgotten lastForgotten;
    /** The summary {@link #whole()} reads on partition threads: written under {@code this}, read without it. */
    private volatile boolean whole = true;
    /**
     * When, by {@link #nanos}, the members missing now are taken as gone; {@code Long.MAX_VALUE} when none is. Written
     * under {@code this}, read without it.
     */
    private volatile long boundAt = Long.MAX_VALUE;

    /**
     * @param heardWindow  a member whose last heartbeat arrived longer ago than this is not heard from
     * @param bound        the longest members stay missing without coming back or being declared gone
     * @param sizeOverride the cluster's size when whole as configured ({@code partita.cluster-size}), 0 for none:
     *                     the size is then never below it
     */
    public Membership(Duration heardWindow, Duration bound, int sizeOverride) {
        this(heardWindow, bound, sizeOverride, System::nanoTime);
    }

    Membership(Duration heardWindow, Duration bound, int sizeOverride, LongSupplier nanos) {
        this.windowNanos = heardWindow.toNanos();
        this.boundNanos = bound.toNanos();
        this.sizeOverride = sizeOverride;
        this.nanos = nanos;
        this.expected = floor();
        this.whole = expected <= 1;
    }

    /** The membership of {@code hazelcast}'s member, as its config registered it. */
    public static Membership of(HazelcastInstance hazelcast) {
        return (Membership) hazelcast.getUserContext().get(USER_CONTEXT_KEY);
    }

    @Override
    public synchronized void init(InitialMembershipEvent event) {
        observe(event.getMembers());
    }

    @Override
    public synchronized void memberAdded(MembershipEvent event) {
        heardAt.put(event.getMember().getUuid(), nanos.getAsLong());
        observe(event.getMembers());
    }

    @Override
    public synchronized void memberRemoved(MembershipEvent event) {
        Member gone = event.getMember();
        heardAt.remove(gone.getUuid());
        if (leaving.remove(gone.getUuid())) {
            expected = Math.max(floor(), expected - 1);
            LOG.info("Member {} left gracefully; the cluster is whole with {} members", address(gone), expected);
        } else if (!gone.localMember()) {
            if (missing.isEmpty()) {
                boundAt = nanos.getAsLong() + boundNanos;
            }
            missing.put(gone.getUuid(), new Missing(gone.getUuid(), address(gone),
                    rank.getOrDefault(gone.getUuid(), Long.MAX_VALUE), System.currentTimeMillis()));
            LOG.warn("Member {} was removed without leaving: it may be on the other side of a network split. Until {} "
                            + "members are present again (or an admin declares the missing ones gone), account tails "
                            + "keep what a merge needs", address(gone), expected);
        }
        observe(event.getMembers());
    }

    /** A member announced that it is leaving gracefully (it hands its data over before it goes). */
    synchronized void leaving(UUID member) {
        if (current.stream().anyMatch(m -> m.getUuid().equals(member))) {
            leaving.add(member);
        }
    }

    /** A heartbeat from {@code member} arrived now. */
    void heard(Member member) {
        heardAt.put(member.getUuid(), nanos.getAsLong());
    }

    /**
     * Declares the missing members gone for good (an admin's decision: they crashed, or their side of a split will
     * not come back): the cluster is whole with the members present now.
     */
    synchronized Forgotten forgetMissing(String by) {
        Forgotten forgotten = new Forgotten(System.currentTimeMillis(), by, missing.values().stream()
                .map(Missing::address).toList(), expected, current.size());
        if (!missing.isEmpty() || expected > current.size()) {
            LOG.warn("Missing members {} declared gone by {}: the cluster is whole with {} members (was {})",
                    forgotten.members(), by, current.size(), expected);
        }
        lastForgotten = forgotten;
        wholeWithThePresent();
        return forgotten;
    }

    /**
     * Whether the cluster is whole as far as this member knows: no member is missing (or the bound has passed).
     * Cheap: read on partition threads.
     */
    public boolean whole() {
        long bound = boundAt;
        if (!whole && bound != Long.MAX_VALUE && nanos.getAsLong() - bound >= 0) {
            synchronized (this) {
                if (!missing.isEmpty() && boundAt != Long.MAX_VALUE && nanos.getAsLong() - boundAt >= 0) {
                    LOG.warn("Members {} have been missing longer than {}: they are taken as gone",
                            missing.values().stream().map(Missing::address).toList(),
                            Duration.ofNanos(boundNanos));
                    wholeWithThePresent();
                }
            }
        }
        return whole;
    }

    /**
     * Whether this member, with {@code members} in its list, hears from a majority of the cluster's size when whole
     * (members announcing a leave not counted), or from exactly half of it including its oldest member; or, with
     * {@code required} above 0, from at least that many.
     */
    synchronized boolean hasMajority(Collection<Member> members, int required) {
        long now = nanos.getAsLong();
        Set<UUID> heard = new HashSet<>();
        for (Member member : members) {
            Long at = heardAt.get(member.getUuid());
            if (member.localMember() || (at != null && now - at <= windowNanos)) {
                heard.add(member.getUuid());
            }
        }
        if (required > 0) {
            return heard.size() >= required;
        }
        int size = expected - (int) leaving.stream().filter(heard::contains).count();
        heard.removeAll(leaving);
        if (heard.size() * 2 > size) {
            return true;
        }
        return heard.size() * 2 == size && heard.contains(oldest());
    }

    /** The oldest member of the whole cluster, present or missing, not leaving. */
    private UUID oldest() {
        UUID oldest = null;
        long best = Long.MAX_VALUE;
        for (Member member : current) {
            long r = rank.getOrDefault(member.getUuid(), Long.MAX_VALUE);
            if (!leaving.contains(member.getUuid()) && r < best) {
                best = r;
                oldest = member.getUuid();
            }
        }
        for (Missing gone : missing.values()) {
            if (gone.rank() < best) {
                best = gone.rank();
                oldest = gone.uuid();
            }
        }
        return oldest;
    }

    /** What {@code GET /cluster} shows of it. */
    public synchronized View view() {
        whole();
        return new View(expected, current.size(), whole, List.copyOf(missing.values()), leaving.size(), lastForgotten);
    }

    private void observe(Set<Member> members) {
        List<Member> list = new ArrayList<>(members);
        for (Member member : list) {
            // Age by the member list version the member joined at, which every member of the cluster agrees on (a
            // member's own first view may hold only itself, so the order it first saw others in is no measure).
            int joined = Internals.joinVersion(member);
            if (joined > 0) {
                rank.put(member.getUuid(), (long) joined);
            } else if (rank.putIfAbsent(member.getUuid(), Integer.MAX_VALUE + nextRank) == null) {
                nextRank++;
            }
        }
        current = List.copyOf(list);
        Set<String> present = new HashSet<>();
        list.forEach(member -> present.add(address(member)));
        // A missing member that is back (a merge gives it a new identity, not a new address) is no longer missing.
        missing.values().removeIf(gone -> present.contains(gone.address()) || containsUuid(list, gone.uuid()));
        rank.keySet().removeIf(uuid -> !containsUuid(list, uuid) && !missing.containsKey(uuid));
        leaving.removeIf(uuid -> !containsUuid(list, uuid));
        expected = Math.max(expected, list.size());
        if (list.size() >= expected && !missing.isEmpty()) {
            LOG.info("The cluster is whole again with {} members; {} taken as replaced", list.size(),
                    missing.values().stream().map(Missing::address).toList());
            missing.clear();
        }
        summarize();
    }

    /** The fewest members the cluster has when whole: 1, or the configured size. */
    private int floor() {
        return Math.max(1, sizeOverride);
    }

    /** The missing members are gone: the cluster is whole with the members present now. */
    private void wholeWithThePresent() {
        missing.clear();
        expected = Math.max(floor(), current.size());
        summarize();
    }

    private void summarize() {
        whole = current.size() >= expected && missing.isEmpty();
        if (missing.isEmpty()) {
            boundAt = Long.MAX_VALUE;
        }
    }

    private static boolean containsUuid(List<Member> members, UUID uuid) {
        for (Member member : members) {
            if (member.getUuid().equals(uuid)) {
                return true;
            }
        }
        return false;
    }

    static String address(Member member) {
        return member.getAddress().getHost() + ":" + member.getAddress().getPort();
    }

    /**
     * @param uuid    the member's identity when it went missing
     * @param address where it was
     * @param rank    its age among the members this one saw
     * @param sinceAt when it went missing, epoch milliseconds on this member's clock (shown, never compared)
     */
    @Serdeable
    public record Missing(UUID uuid, String address, long rank, long sinceAt) {
    }

    /**
     * An admin's declaration that the missing members are gone.
     *
     * @param at        when, epoch milliseconds on this member's clock
     * @param by        who (the authenticated user, or "anonymous" on an open node)
     * @param members   the members that were missing
     * @param expected  the cluster's size when whole before
     * @param now       after
     */
    @Serdeable
    public record Forgotten(long at, String by, List<String> members, int expected, int now) {
    }

    /**
     * @param expected      the members the cluster has when whole
     * @param present       the members present now
     * @param whole         whether none is missing
     * @param missing       members removed without leaving, possibly on the other side of a split
     * @param leaving       members that announced a graceful leave and are still present
     * @param lastForgotten the last admin declaration that missing members are gone, if any
     */
    @Serdeable
    public record View(int expected, int present, boolean whole, List<Missing> missing, int leaving,
                       @Nullable Forgotten lastForgotten) {
    }
}
