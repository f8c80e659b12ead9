package io.partita.lease;

import com.hazelcast.core.ReadOnly;
import com.hazelcast.map.EntryProcessor;
import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Whether a fencing token is the current grant of its shard, asked where the group lives so that only the answer
 * travels (a group's state can hold 10,000 shards). Read-only: no backup, no change.
 * Runs on the partition thread of the group's key (the owner); read-only, so a run again after a retry
 * or a migration gives the same answer.
 */
@ClassId(103)
public final class FenceCheck
        implements EntryProcessor<String, LeaseGroup, LeaseAnswer>, ReadOnly, FieldList {

    private int shard;
    private long token;

    public FenceCheck() {
    }

    FenceCheck(int shard, long token) {
        this.shard = shard;
        this.token = token;
    }

    @Override
    public LeaseAnswer process(Map.Entry<String, LeaseGroup> entry) {
        LeaseGroup group = entry.getValue();
        if (group == null) {
            return LeaseAnswer.of(LeaseAnswer.Status.NO_GROUP);
        }
        if (shard >= group.shards()) {
            return LeaseAnswer.of(LeaseAnswer.Status.CONFLICT);
        }
        boolean current = group.isCurrent(shard, token);
        String holder = group.holder(shard);
        return new LeaseAnswer(current ? LeaseAnswer.Status.OK : LeaseAnswer.Status.UNKNOWN_WORKER, holder,
                group.leaseMillis(), List.of(), new LeaseGroup.Changes(0, 0, 0),
                holder == null ? -1 : group.token(shard));
    }

    @Override
    public EntryProcessor<String, LeaseGroup, LeaseAnswer> getBackupProcessor() {
        return null;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        shard = fields.int32(shard);
        token = fields.int64(token);
    }
}
