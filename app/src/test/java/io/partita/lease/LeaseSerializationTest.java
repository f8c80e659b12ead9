package io.partita.lease;

import io.partita.support.WireSerialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The lease feature's group, calls and answers through the node's own serialization config with Java serialization
 * refused: each comes back as the same bytes, and the group with its workers, holders and tokens.
 */
class LeaseSerializationTest {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void shouldRoundTripAGroupWithItsWorkersHoldersAndTokens() {
        LeaseGroup group = new LeaseGroup(8, 10_000);
        String first = group.join("req-1", NOW).id();
        String second = group.join("req-2", NOW + 1).id();
        group.renew(first, NOW + 2);
        group.renew(second, NOW + 3);

        LeaseGroup back = WireSerialization.roundTrip(group);
        assertEquals(group.workers(), back.workers());
        assertEquals(group.held(first), back.held(first));
        assertEquals(group.held(second), back.held(second));
        for (int shard = 0; shard < 8; shard++) {
            assertEquals(group.holder(shard), back.holder(shard), "holder of shard " + shard);
            assertEquals(group.token(shard), back.token(shard), "token of shard " + shard);
        }
    }

    @Test
    void shouldRoundTripEveryCallAndAnswer() {
        for (Object call : List.of(LeaseCall.create(8, 10_000, NOW), LeaseCall.join("req-1", NOW),
                LeaseCall.renew("w-1", NOW), LeaseCall.leave("w-1", NOW), LeaseCall.expire(NOW),
                new FenceCheck(3, 17))) {
            WireSerialization.roundTrip(call);
        }
        LeaseAnswer answer = new LeaseAnswer(LeaseAnswer.Status.OK, "w-1", 10_000,
                List.of(new LeaseGroup.Grant(1, 5), new LeaseGroup.Grant(4, 9)), new LeaseGroup.Changes(2, 1, 0), 9);
        LeaseAnswer back = WireSerialization.roundTrip(answer);
        assertEquals(List.of(answer.status(), answer.workerId(), answer.leaseMillis(), answer.grants(),
                answer.changes(), answer.currentToken()), List.of(back.status(), back.workerId(), back.leaseMillis(),
                back.grants(), back.changes(), back.currentToken()));
        WireSerialization.roundTrip(LeaseAnswer.of(LeaseAnswer.Status.NO_GROUP));
    }
}
