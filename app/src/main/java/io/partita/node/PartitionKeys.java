package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.PartitionService;

/**
 * One string key for each partition id, found once by trying "p0", "p1", ... until every partition has one. Hazelcast
 * addresses a partition by a key, not by its id (a partition predicate, {@code submitToKeyOwner}); these keys let a
 * job name "partition 17" in those calls. A key's partition depends only on its serialized form and the partition
 * count, so the table is the same on every member.
 * <b>Threads:</b> {@link #of} is called from any thread at once: partition threads (the sentinel check of an entry
 * processor), HTTP event loops, the job runner. The table is built on first use and published through a volatile
 * field; two threads that both find it missing each build the same table, which costs a little work and nothing else,
 * and once published it is never changed.
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
