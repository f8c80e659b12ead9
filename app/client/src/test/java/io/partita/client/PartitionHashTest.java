package io.partita.client;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The partition of a key, against figures a Hazelcast 5.4.0 member computed for the same keys
 * ({@code HashUtil.hashToIndex(serializationService.toData(key).getPartitionHash(), 271)}); PartitionRoutingIT checks
 * more keys against a running node.
 */
class PartitionHashTest {

    @Test
    void shouldPlaceKeysInTheSamePartitionsAsAHazelcastMember() {
        assertEquals(22, PartitionHash.partitionOf("a-1", 271));
        assertEquals(35, PartitionHash.partitionOf("a-2", 271));
        assertEquals(82, PartitionHash.partitionOf("acc-0", 271));
        assertEquals(7, PartitionHash.partitionOf("alice", 271));
        assertEquals(221, PartitionHash.partitionOf("ü-日本-42", 271));
        assertEquals(11, PartitionHash.partitionOf("", 271));
    }
}
