package io.partita.schedule;

import com.hazelcast.spi.merge.MergingValue;
import io.partita.node.ClassId;
import io.partita.node.ValueMergePolicy;

/**
 * How schedules merge after a network split heals: no firing runs twice. A schedule only one side holds is taken. Of
 * two records of one schedule, the newer definition (the later PUT) is kept, with the later of the two sides' last
 * firings: a firing either side accounted for is never fired again (and a firing's job id is derived from its time,
 * so even a repeat would find its job taken). On a tie the side merged into keeps its own.
 * Runs on the partition thread of the schedule's owner in the merged cluster, once per schedule the
 * smaller side brings. A plain function of the two values.
 */
@ClassId(69)
public final class ScheduleMergePolicy extends ValueMergePolicy<Schedule, MergingValue<Schedule>> {

    @Override
    protected Schedule join(Schedule theirs, Schedule ours) {
        Schedule kept = theirs.createdAt() > ours.createdAt() ? theirs : ours;
        long lastFiredAt = Math.max(theirs.lastFiredAt(), ours.lastFiredAt());
        if (lastFiredAt == kept.lastFiredAt()) {
            return kept;
        }
        return new Schedule(kept.name(), kept.cron(), kept.job(), kept.createdAt(), lastFiredAt, kept.firings(),
                kept.missed(), kept.skipped(), kept.lastJobId(), kept.lastNote());
    }
}
