package io.partita.schedule;

import io.partita.node.ClassId;
import io.partita.node.FieldList;
import io.partita.node.Fields;
import io.partita.node.ReplaceValue;
import io.partita.node.ValueWriter;

import java.io.IOException;
import java.util.Map;

/**
 * Accounts for a schedule's firings up to {@code fireAt}, if the schedule's last firing is still the one the trigger
 * read ({@code expected}): a compare-and-set on the schedule's partition thread. Two members that evaluated the same
 * schedule from the same state (during a migration, or a takeover) cannot both count their firings; the loser's job,
 * if it started one, has the same deterministic id and is counted by the next evaluation instead.
 * Runs on the partition thread of the schedule's owner; a run again after a retry or a migration finds
 * {@code lastFiredAt} moved and answers false without writing. Deterministic: the firing's time travels in the
 * processor. Its backup ({@link ReplaceValue}) stores the schedule it wrote on each backup replica, and owner and
 * backups write it to their disks ({@link ScheduleDisk}).
 */
@ClassId(67)
final class RecordFiring extends ValueWriter<String, Schedule, Boolean> implements FieldList {

    private long expected;
    private long fireAt;
    private long ran;
    private long missed;
    private long skipped;
    private String jobId;
    private String note;

    public RecordFiring() {
    }

    RecordFiring(long expected, long fireAt, long ran, long missed, long skipped, String jobId, String note) {
        this.expected = expected;
        this.fireAt = fireAt;
        this.ran = ran;
        this.missed = missed;
        this.skipped = skipped;
        this.jobId = jobId;
        this.note = note;
    }

    @Override
    public Boolean process(Map.Entry<String, Schedule> entry) {
        Schedule schedule = entry.getValue();
        if (schedule == null || schedule.lastFiredAt() != expected) {
            return false;
        }
        write(entry, schedule.fired(fireAt, ran, missed, skipped, jobId, note), 0);
        return true;
    }

    @Override
    protected String map() {
        return ScheduleFeature.SCHEDULES;
    }

    @Override
    public void fields(Fields fields) throws IOException {
        expected = fields.int64(expected);
        fireAt = fields.int64(fireAt);
        ran = fields.int64(ran);
        missed = fields.int64(missed);
        skipped = fields.int64(skipped);
        jobId = fields.string(jobId);
        note = fields.string(note);
    }
}
