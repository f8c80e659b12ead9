package io.partita.observe;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.partition.Partition;
import io.partita.account.AccountFeature;
import io.partita.node.ClassId;
import io.partita.node.ClusterClock;
import io.partita.node.Internals;
import io.partita.node.NodeActivity;
import io.partita.node.Stateless;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Asks one member what it owns: sent to every member by {@link PartitionViews}, it answers with the accounts in each
 * partition the member owns, read from the member's own record stores (no entry is touched), and its node's
 * transaction counters.
 * Runs on a thread of the {@code partita.views} executor of each member, never on a partition thread. It
 * carries no state; a member that leaves while answering simply has no answer, and the view shows its partitions
 * without counts until the next poll.
 */
@ClassId(80)
final class MemberSnapshotTask implements Callable<MemberSnapshot>, HazelcastInstanceAware, Stateless {

    private transient HazelcastInstance hazelcast;

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.hazelcast = hazelcastInstance;
    }

    @Override
    public MemberSnapshot call() {
        List<Integer> owned = new ArrayList<>();
        for (Partition partition : hazelcast.getPartitionService().getPartitions()) {
            if (partition.getOwner() != null && partition.getOwner().localMember()) {
                owned.add(partition.getPartitionId());
            }
        }
        int[] partitionIds = owned.stream().mapToInt(Integer::intValue).toArray();
        long[] entries = Internals.localEntries(hazelcast, AccountFeature.ACCOUNTS, partitionIds);
        Object activity = hazelcast.getUserContext().get(NodeActivity.USER_CONTEXT_KEY);
        long transactions = 0;
        double rate = 0;
        if (activity instanceof NodeActivity node) {
            transactions = node.transactions();
            rate = node.transactionsPerSecond();
        }
        return new MemberSnapshot(hazelcast.getCluster().getLocalMember().getUuid(), partitionIds, entries,
                transactions, rate, ClusterClock.offset(hazelcast));
    }
}
