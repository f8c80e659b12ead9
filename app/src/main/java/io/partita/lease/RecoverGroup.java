package io.partita.lease;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Puts back a lease group read from a member's disk after a restart of the whole cluster ({@link LeaseDisk}), unless
 * the cluster holds the group already (another disk's copy came first): the copy in place is kept.
 * Runs on the partition thread of the group's owner; a run again after a retry finds the group and
 * writes nothing. Its backup ({@link ReplaceValue}) stores the group on each backup replica, and owner and backups
 * write it to their disks.
 */
@ClassId(104)
final class RecoverGroup extends ValueWriter<String, LeaseGroup, Void> implements FieldList {

    private LeaseGroup group;

    RecoverGroup() {
    }

    RecoverGroup(LeaseGroup group) {
        this.group = group;
    }

    @Override
    public Void process(Map.Entry<String, LeaseGroup> entry) {
        if (entry.getValue() == null) {
            write(entry, group, 0);
        }
        return null;
    }

    @Override
    protected String map() {
        return LeaseFeature.LEASE_GROUPS;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        group = fields.object(group);
    }
}
