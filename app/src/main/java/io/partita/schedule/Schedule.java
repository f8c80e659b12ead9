package io.partita.schedule;

import io.micronaut.core.annotation.Nullable;
import io.partita.job.JobSpec;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * The value of the {@code schedules} map: a cron expression, the job each firing runs, and the record of what fired.
 * {@link ScheduleTrigger} advances {@link #lastFiredAt} with a compare-and-set, so one firing is counted once however
 * many members evaluate it.
 *
 * @param createdAt   epoch milliseconds of the last PUT; the first firing is the first cron time after it
 * @param lastFiredAt the cron time (epoch milliseconds) of the last firing accounted for, or {@code createdAt}
 * @param firings     firings that ran their job
 * @param missed      firings that passed while no member could run them (they are not caught up later), or whose
 *                    job id a job this schedule did not start had already taken
 * @param skipped     firings whose job was refused because a job of the same type was still running
 * @param lastJobId   the job of the last firing that ran one
 * @param lastNote    why the last firing did not run a job, or null
 */
public record Schedule(String name, String cron, JobSpec job, long createdAt, long lastFiredAt, long firings,
                       long missed, long skipped, @Nullable String lastJobId, @Nullable String lastNote) {

    private static final int MAX_ID = 64;

    public Schedule {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cron, "cron");
        Objects.requireNonNull(job, "job");
    }

    public static Schedule create(String name, String cron, JobSpec job, long at) {
        return new Schedule(name, cron, job, at, at, 0, 0, 0, null, null);
    }

    /**
     * The id of the job that the firing at {@code fireAt} runs: the schedule's name and the firing's epoch second.
     * Every member derives the same id for the same firing, so the job's {@code putIfAbsent} lets one of them start
     * it. A name too long for the 64 characters of an id is shortened and told apart by its CRC-32.
     */
    public static String firingJobId(String name, long fireAt) {
        String suffix = ":" + Math.floorDiv(fireAt, 1000);
        if (name.length() + suffix.length() <= MAX_ID) {
            return name + suffix;
        }
        CRC32 crc = new CRC32();
        crc.update(name.getBytes(StandardCharsets.UTF_8));
        String tag = String.format(".%08x", crc.getValue());
        return name.substring(0, MAX_ID - suffix.length() - tag.length()) + tag + suffix;
    }

    /** This schedule after the firings up to {@code fireAt} were accounted for. */
    public Schedule fired(long fireAt, long ran, long notRun, long refused, @Nullable String jobId,
            @Nullable String note) {
        return new Schedule(name, cron, job, createdAt, fireAt, firings + ran, missed + notRun, skipped + refused,
                jobId == null ? lastJobId : jobId, note);
    }
}
