package io.partita.account;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.spi.merge.MergingEntry;
import io.partita.node.StatelessMergePolicy;

/**
 * What the ledger's merge policies share: they carry no state over the wire (an id, nothing else), and they read the
 * member they merge into, which Hazelcast injects before each merge (the record store initializes the policy with the
 * member's managed context, on the partition thread that runs the merge).
 * <b>Threads:</b> a subclass's merge runs on the partition threads of the merged cluster's owners, several partitions
 * at once; the member is injected into a volatile field before each call, on that call's thread, and every injection
 * names the member the merge runs on, so calls on several partition threads at once write the same value.
 *
 * @param <V> the map's value
 */
abstract class MemberMergePolicy<V> extends StatelessMergePolicy<V, MergingEntry<Object, V>>
        implements HazelcastInstanceAware {

    protected transient volatile HazelcastInstance hazelcast;

    /** The partition {@code key} lives in. */
    protected int partitionOf(Object key) {
        return hazelcast.getPartitionService().getPartition(key).getPartitionId();
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.hazelcast = hazelcastInstance;
    }
}
