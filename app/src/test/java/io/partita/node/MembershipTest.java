package io.partita.node;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Cluster;
import com.hazelcast.cluster.InitialMembershipEvent;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.impl.MemberImpl;
import com.hazelcast.version.MemberVersion;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The membership a member observes, as a function of the events it sees: a graceful leave (announced) shrinks the
 * cluster, a removal without notice leaves the member missing until it or a replacement is back, an admin forgets
 * it, or the bound passes; split-brain protection keeps the side that hears from a majority of the cluster as last
 * seen whole, breaks an even split by the oldest member, and judges heartbeats by when they arrive.
 */
class MembershipTest {

    private static final Duration WINDOW = Duration.ofSeconds(6);
    private static final Duration BOUND = Duration.ofHours(24);
    private static final Cluster CLUSTER = (Cluster) Proxy.newProxyInstance(MembershipTest.class.getClassLoader(),
            new Class<?>[] {Cluster.class}, (proxy, method, args) -> null);

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<Member> present = new ArrayList<>();

    @Test
    void shouldTakeAnAnnouncedLeaveAsAShrinkAndStayWhole() {
        Membership membership = started(0, 3, 0);
        Member c = present.get(2);
        membership.leaving(c.getUuid());
        remove(membership, c);

        assertTrue(membership.whole());
        assertEquals(2, membership.view().expected());
        assertTrue(majority(membership));
    }

    @Test
    void shouldHoldWhileAMemberRemovedWithoutNoticeIsMissingAndKeepTheMajorityServing() {
        Membership membership = started(0, 3, 0);
        Member c = present.get(2);
        remove(membership, c);

        assertFalse(membership.whole(), "a member removed without notice may be on the other side of a split");
        assertEquals(3, membership.view().expected());
        assertEquals(List.of(address(c)), membership.view().missing().stream().map(Membership.Missing::address).toList());
        assertTrue(majority(membership), "2 of 3 is a majority");

        remove(membership, present.get(1));
        assertFalse(majority(membership), "1 of 3 is not");
    }

    @Test
    void shouldBeWholeAgainWhenTheMissingMemberReturnsWithANewIdentityOrAReplacementJoins() {
        Membership membership = started(0, 3, 0);
        Member c = present.get(2);
        remove(membership, c);
        add(membership, member(c.getAddress().getPort(), false));
        assertTrue(membership.whole(), "back at its address (a merge gives it a new uuid)");

        remove(membership, present.get(1));
        assertFalse(membership.whole());
        add(membership, member(5799, false));
        assertTrue(membership.whole(), "as many members as before");
        assertEquals(3, membership.view().expected());
    }

    @Test
    void shouldBeWholeWithTheMembersPresentOnceAnAdminForgetsTheMissingOnes() {
        Membership membership = started(0, 3, 0);
        remove(membership, present.get(2));
        remove(membership, present.get(1));
        assertFalse(majority(membership));

        Membership.Forgotten forgotten = membership.forgetMissing("ops");

        assertEquals("ops", forgotten.by());
        assertEquals(2, forgotten.members().size());
        assertEquals(3, forgotten.expected());
        assertEquals(1, forgotten.now());
        assertTrue(membership.whole());
        assertTrue(majority(membership));
        assertEquals(forgotten, membership.view().lastForgotten());
    }

    @Test
    void shouldTakeMissingMembersAsGoneOnceTheBoundHasPassed() {
        Membership membership = started(0, 3, 0);
        remove(membership, present.get(2));
        nanos.addAndGet(BOUND.toNanos() - 1);
        assertFalse(membership.whole());
        nanos.addAndGet(1);
        assertTrue(membership.whole());
        assertEquals(2, membership.view().expected());
    }

    @Test
    void shouldLetOnlyTheSideHoldingTheOldestMemberServeAnEvenSplit() {
        Membership withOldest = started(0, 4, 0);
        List<Member> all = List.copyOf(present);
        remove(withOldest, all.get(2));
        remove(withOldest, all.get(3));
        assertTrue(majority(withOldest), "2 of 4 with the oldest member");

        present.clear();
        Membership withoutOldest = started(2, 4, 0);
        List<Member> theirs = List.copyOf(present);
        remove(withoutOldest, theirs.get(0));
        remove(withoutOldest, theirs.get(1));
        assertFalse(majority(withoutOldest), "2 of 4 without the oldest member");
    }

    @Test
    void shouldRankMembersByWhenTheyJoinedNotByWhenThisMemberFirstSawThem() {
        Member self = member(5703, true);
        Membership membership = new Membership(WINDOW, BOUND, 0, nanos::get);
        present.add(self);
        membership.init(new InitialMembershipEvent(CLUSTER, new LinkedHashSet<>(present)));
        Member oldest = member(5701, false);
        Member second = member(5702, false);
        Member youngest = member(5704, false);
        present.clear();
        present.addAll(List.of(oldest, second, self, youngest));
        for (Member added : List.of(oldest, second, youngest)) {
            membership.memberAdded(new MembershipEvent(CLUSTER, added, MembershipEvent.MEMBER_ADDED, members()));
        }
        present.forEach(membership::heard);
        remove(membership, oldest);
        remove(membership, second);
        assertFalse(majority(membership), "2 of 4, and the oldest is across the split, whatever this member saw first");
    }

    @Test
    void shouldCountOnlyMembersWhoseHeartbeatsArriveWithinTheWindowWhateverTheirClocks() {
        Membership membership = started(0, 3, 0);
        nanos.addAndGet(WINDOW.toNanos() + 1);
        assertFalse(majority(membership), "no heartbeat arrived within the window: only itself is heard");
        membership.heard(present.get(1));
        assertTrue(majority(membership), "a heartbeat counts when it arrives, not by the time it carries");
    }

    @Test
    void shouldNotCountALeavingMemberAgainstTheMajority() {
        Membership membership = started(1, 2, 0);
        Member oldest = present.get(0);
        membership.leaving(oldest.getUuid());
        nanos.addAndGet(WINDOW.toNanos() + 1);
        assertTrue(majority(membership), "the oldest of two is handing its data over; the other keeps serving");
    }

    @Test
    void shouldNeverTakeTheSizeBelowAnExplicitClusterSize() {
        Membership membership = started(0, 1, 3);
        assertFalse(membership.whole());
        assertFalse(majority(membership), "1 of the 3 configured members");
        assertTrue(membership.hasMajority(present, 1), "an explicit count of 1 is met");
    }

    /** A membership whose member is {@code local} of {@code size} members, all just heard from. */
    private Membership started(int local, int size, int sizeOverride) {
        Membership membership = new Membership(WINDOW, BOUND, sizeOverride, nanos::get);
        for (int i = 0; i < size; i++) {
            present.add(member(5701 + i, i == local));
        }
        membership.init(new InitialMembershipEvent(CLUSTER, new LinkedHashSet<>(present)));
        present.forEach(membership::heard);
        return membership;
    }

    private boolean majority(Membership membership) {
        return membership.hasMajority(present, 0);
    }

    private void add(Membership membership, Member member) {
        present.add(member);
        membership.memberAdded(new MembershipEvent(CLUSTER, member, MembershipEvent.MEMBER_ADDED, members()));
    }

    private void remove(Membership membership, Member member) {
        present.remove(member);
        membership.memberRemoved(new MembershipEvent(CLUSTER, member, MembershipEvent.MEMBER_REMOVED, members()));
    }

    private Set<Member> members() {
        return new LinkedHashSet<>(present);
    }

    /** A member that joined at the member list version {@code port - 5700}: the lower the port, the older. */
    private static Member member(int port, boolean local) {
        try {
            MemberImpl member = new MemberImpl(new Address("127.0.0.1", port), MemberVersion.UNKNOWN, local,
                    UUID.randomUUID());
            member.setMemberListJoinVersion(port - 5700);
            return member;
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String address(Member member) {
        return Membership.address(member);
    }
}
