package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.PartitionService;

/**
 * One string key for each partition id, found once by trying "p0", "p1", ... until every partition has one. Hazelcast
 * addresses a partition by a key, not by its id (a partition predicate, {@code submitToKeyOwner}); these keys let a
 * job name "partition 17" in those calls. A key's partition depends only on its serialized form and the partition
 * count, so the table is the same on every member.
 */
public final class PartitionKeys {

    private static volatile String[] table;

    private PartitionKeys() {
    }

    public static String of(HazelcastInstance hazelcast, int partition) {
        String[] keys = table;
        if (keys == null) {
            keys = build(hazelcast.getPartitionService());
            table = keys;
        }
        return keys[partition];
    }

    private static String[] build(PartitionService partitions) {
        String[] keys = new String[HazelcastConfigs.PARTITION_COUNT];
        int found = 0;
        for (int n = 0; found < keys.length; n++) {
            String key = "p" + n;
            int partition = partitions.getPartition(key).getPartitionId();
            if (keys[partition] == null) {
                keys[partition] = key;
                found++;
            }
        }
        return keys;
    }
}
