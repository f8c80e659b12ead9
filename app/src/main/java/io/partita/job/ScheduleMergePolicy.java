package io.partita.job;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import com.hazelcast.spi.merge.MergingValue;
import com.hazelcast.spi.merge.SplitBrainMergePolicy;
import io.partita.cluster.Serialization;

/**
 * How schedules merge after a network split heals: no firing runs twice. A schedule only one side holds is taken. Of
 * two records of one schedule, the newer definition (the later PUT) is kept, with the later of the two sides' last
 * firings: a firing either side accounted for is never fired again (and a firing's job id is derived from its time,
 * so even a repeat would find its job taken). On a tie the side merged into keeps its own.
 *
 * <p>What runs where: on the partition thread of the schedule's owner in the merged cluster, once per schedule the
 * smaller side brings. A plain function of the two values.
 */
public final class ScheduleMergePolicy
        implements SplitBrainMergePolicy<Schedule, MergingValue<Schedule>, Object>, IdentifiedDataSerializable {

    @Override
    public Object merge(MergingValue<Schedule> merging, MergingValue<Schedule> existing) {
        if (existing == null || existing.getRawValue() == null) {
            return merging.getRawValue();
        }
        Schedule theirs = merging.getValue();
        Schedule ours = existing.getValue();
        if (theirs == null || ours == null) {
            return ours == null ? merging.getRawValue() : existing.getRawValue();
        }
        Schedule kept = theirs.createdAt() > ours.createdAt() ? theirs : ours;
        long lastFiredAt = Math.max(theirs.lastFiredAt(), ours.lastFiredAt());
        if (kept == ours && lastFiredAt == ours.lastFiredAt()) {
            return existing.getRawValue();
        }
        return new Schedule(kept.name(), kept.cron(), kept.job(), kept.createdAt(), lastFiredAt, kept.firings(),
                kept.missed(), kept.skipped(), kept.lastJobId(), kept.lastNote());
    }

    @Override
    public int getFactoryId() {
        return Serialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return Serialization.SCHEDULE_MERGE;
    }

    @Override
    public void writeData(ObjectDataOutput out) {
    }

    @Override
    public void readData(ObjectDataInput in) {
    }
}
