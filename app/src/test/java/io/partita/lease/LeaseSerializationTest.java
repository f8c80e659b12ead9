package io.partita.lease;

import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lease feature's group, calls and answers through the node's own serialization config with Java serialization
 * refused: each, built with every field set (a call's fields between its kinds), comes back with every field as it
 * was, the group with its workers, holders, pending hand-overs, tokens and totals.
 */
class LeaseSerializationTest {

    private static final long NOW = 1_700_000_000_000L;
    /**
     * The group's counts since the call began: the call drains them into its answer (for the node's meters) before the
     * group is stored, so no stored or sent group carries them.
     */
    private static final String[] DRAINED = {"LeaseGroup.grants", "LeaseGroup.moves", "LeaseGroup.expiries"};

    @Test
    void shouldRoundTripAGroupWithItsWorkersHoldersHandOversTokensAndTotals() {
        LeaseGroup group = groupWithEveryFieldSet();

        LeaseGroup back = WireSerialization.roundTripEveryField(WireSerialization.withoutJava(), group, DRAINED);
        assertEquals(group.workers(), back.workers());
        assertEquals(group.totals(), back.totals());
        assertEquals(group.handOvers(), back.handOvers());
        for (String worker : group.workers().keySet()) {
            assertEquals(group.held(worker), back.held(worker));
        }
        for (int shard = 0; shard < 8; shard++) {
            assertEquals(group.holder(shard), back.holder(shard), "holder of shard " + shard);
            assertEquals(group.token(shard), back.token(shard), "token of shard " + shard);
        }
        WireSerialization.roundTripEveryField(WireSerialization.withoutJava(), new RecoverGroup(group), DRAINED);
    }

    @Test
    void shouldRoundTripEveryCallAndAnswer() {
        // No one call sets every field (a join has no shards, a create no worker): between them, each is set.
        WireSerialization.roundTripEveryFieldAmong(List.of(LeaseCall.create(8, 10_000, NOW),
                LeaseCall.join("req-1", NOW), LeaseCall.renew("w-1", NOW), LeaseCall.leave("w-1", NOW),
                LeaseCall.expire(NOW)));
        WireSerialization.roundTripEveryField(new FenceCheck(3, 17));
        LeaseAnswer answer = new LeaseAnswer(LeaseAnswer.Status.CREATED, "w-1", 10_000,
                List.of(new LeaseGroup.Grant(1, 5), new LeaseGroup.Grant(4, 9)), new LeaseGroup.Changes(2, 1, 3), 9);
        LeaseAnswer back = WireSerialization.roundTripEveryField(answer);
        assertEquals(List.of(answer.status(), answer.workerId(), answer.leaseMillis(), answer.grants(),
                answer.changes(), answer.currentToken()), List.of(back.status(), back.workerId(), back.leaseMillis(),
                back.grants(), back.changes(), back.currentToken()));
        WireSerialization.roundTrip(LeaseAnswer.of(LeaseAnswer.Status.NO_GROUP));
    }

    /**
     * Eight shards among workers: the third stops renewing and expires (so every total is above 0), the fourth's join
     * leaves shards pending a hand-over, and the counts since the last call are drained as a call drains them.
     */
    private static LeaseGroup groupWithEveryFieldSet() {
        LeaseGroup group = new LeaseGroup(8, 10_000);
        String first = group.join("req-1", NOW).id();
        String second = group.join("req-2", NOW + 1).id();
        group.join("req-3", NOW + 2);
        group.renew(first, NOW + 5_000);
        group.renew(second, NOW + 5_000);
        assertEquals(1, group.expire(NOW + 10_002), "the third worker expires");
        group.join("req-4", NOW + 10_003);
        assertEquals(3, group.workers().size());
        assertTrue(group.handOvers() > 0, "shards wait for their holder to let them go");
        group.drainChanges();
        return group;
    }
}
