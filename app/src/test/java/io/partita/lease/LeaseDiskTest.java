package io.partita.lease;

import io.partita.store.StoredRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A lease group as the disk keeps it comes back as what it was, without its workers: every shard free, each shard's
 * token as it was, so the next grant is above every token handed out before, and new workers numbered on.
 */
class LeaseDiskTest {

    private static final long LEASE = 10_000;
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void shouldBringBackAGroupWithoutWorkersWithItsTokensAndNumbering() throws IOException {
        LeaseGroup group = new LeaseGroup(6, LEASE);
        LeaseGroup.Worker first = group.join("req-1", NOW);
        LeaseGroup.Worker second = group.join("req-2", NOW);
        group.renew(first.id(), NOW + 1);
        long[] tokens = new long[6];
        for (int s = 0; s < 6; s++) {
            tokens[s] = group.token(s);
        }

        LeaseGroup restored = readBack("mailers", group);

        assertEquals(6, restored.shards());
        assertEquals(LEASE, restored.leaseMillis());
        assertEquals(Map.of(), restored.workers(), "no worker survives a restart of the cluster");
        for (int s = 0; s < 6; s++) {
            assertNull(restored.holder(s), "shard " + s + " is free");
            assertEquals(tokens[s], restored.token(s), "shard " + s + "'s token is kept");
        }
        assertEquals(group.totals(), restored.totals());
        assertNull(restored.renew(second.id(), NOW + 2), "a worker from before the restart must join again");

        LeaseGroup.Worker joined = restored.join("req-3", NOW + 3);
        assertEquals("w3", joined.id(), "workers are numbered on from before the restart");
        List<LeaseGroup.Grant> grants = restored.held(joined.id());
        assertEquals(6, grants.size());
        for (LeaseGroup.Grant grant : grants) {
            assertTrue(grant.token() > tokens[grant.shard()], "a grant after the restart is above every earlier one");
        }
    }

    private static LeaseGroup readBack(String name, LeaseGroup group) throws IOException {
        StoredRecord record = LeaseDisk.KIND.record(name, group);
        assertTrue(LeaseDisk.KIND.owns(record.key()));
        byte[] key = Arrays.copyOfRange(record.key(), 1, record.key().length);
        assertEquals(name, LeaseDisk.KIND.readKey(new DataInputStream(new ByteArrayInputStream(key))));
        return LeaseDisk.KIND.readValue(new DataInputStream(new ByteArrayInputStream(record.value())));
    }
}
