package io.partita.schedule;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Puts back a schedule read from a member's disk after a restart of the whole cluster ({@link ScheduleDisk}), joined
 * with the copy the cluster holds (another disk's, or one written since) as a split-brain merge joins two sides
 * ({@link ScheduleMergePolicy}): the later definition with the later of the two last firings, so no firing either copy
 * accounted for runs again. When the cluster's copy already is that, nothing changes.
 * Runs on the partition thread of the schedule's owner; a run again after a retry finds the schedule
 * joined and writes nothing. Its backup ({@link ReplaceValue}) stores what it wrote on each backup replica, and owner
 * and backups write it to their disks.
 */
@ClassId(72)
final class RecoverSchedule extends ValueWriter<String, Schedule, Schedule> implements FieldList {

    private static final ScheduleMergePolicy MERGE = new ScheduleMergePolicy();

    private Schedule schedule;

    RecoverSchedule() {
    }

    RecoverSchedule(Schedule schedule) {
        this.schedule = schedule;
    }

    @Override
    public Schedule process(Map.Entry<String, Schedule> entry) {
        Schedule current = entry.getValue();
        Schedule joined = current == null ? schedule : MERGE.join(schedule, current);
        return joined == current ? current : write(entry, joined, 0);
    }

    @Override
    protected String map() {
        return ScheduleFeature.SCHEDULES;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        schedule = fields.object(schedule);
    }
}
