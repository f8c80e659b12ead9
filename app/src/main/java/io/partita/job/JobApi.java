package io.partita.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.account.Ledger;
import io.partita.node.HazelcastConfigs;
import io.partita.refusal.Refusal;
import io.partita.web.Ids;
import io.partita.web.StrictJson;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** The bodies of the job API (app/README.md, "Jobs and schedules"); a schedule's job is a {@link JobRequest} too. */
public final class JobApi {

    static final String MAX_RATE = "10000";

    private JobApi() {
    }

    /**
     * {@code POST /jobs}, and the {@code job} of a schedule. Numbers arrive as BigDecimal read from JSON integers only
     * (StrictJson), so 2.5 or "25" is refused with a field error; which of them a type needs is checked in
     * {@link #spec(String)}.
     */
    @Serdeable
    public record JobRequest(
            @Nullable @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String id,
            @NotNull @StrictJson.Text
            @Pattern(regexp = "FEE|INTEREST|AUDIT", message = "must be FEE, INTEREST or AUDIT") String type,
            @Nullable @StrictJson.Whole @DecimalMin("1") @DecimalMax(Ledger.MAX_AMOUNT_TEXT) BigDecimal amount,
            @Nullable @StrictJson.Whole @DecimalMin("1") @DecimalMax(MAX_RATE) BigDecimal rateBasisPoints,
            @Nullable @StrictJson.Flag Boolean concurrent) {

        /**
         * The job this request asks for, once the fields that depend on its type are checked.
         *
         * @param prefix how the client names this object's fields ({@code ""}, or {@code "job."} in a schedule)
         */
        public JobSpec spec(String prefix) {
            JobType jobType = JobType.valueOf(type);
            requireOnlyFor(prefix + "amount", amount, jobType, JobType.FEE);
            requireOnlyFor(prefix + "rateBasisPoints", rateBasisPoints, jobType, JobType.INTEREST);
            return new JobSpec(jobType, amount == null ? 0 : amount.longValueExact(),
                    rateBasisPoints == null ? 0 : rateBasisPoints.intValueExact(), Boolean.TRUE.equals(concurrent));
        }

        private static void requireOnlyFor(String field, BigDecimal value, JobType type, JobType owner) {
            if (type == owner && value == null) {
                throw Refusal.invalidField(field, "is required for a " + owner + " job");
            }
            if (type != owner && value != null) {
                throw Refusal.invalidField(field, "applies to " + owner + " jobs only");
            }
        }
    }

    /** A job's spec as the API shows it: the fields its type uses. */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SpecView(String type, @Nullable Long amount, @Nullable Integer rateBasisPoints, boolean concurrent) {

        public static SpecView of(JobSpec spec) {
            return new SpecView(spec.type().name(), spec.type() == JobType.FEE ? spec.amount() : null,
                    spec.type() == JobType.INTEREST ? spec.rateBasisPoints() : null, spec.concurrent());
        }
    }

    /**
     * A job and its progress. {@code finishedAt} is null while it runs. {@code run} tells this job from an earlier one
     * of the same id; its movements are journaled under txId {@code job/<id>/<run>}. The result fields are those of its
     * type: FEE {@code applied}, {@code rejected} (could not pay), {@code skipped}, {@code charged}; INTEREST {@code
     * applied}, {@code rejected}, {@code skipped} (earned nothing), {@code paid}; AUDIT {@code mismatches}, {@code
     * mismatchIds} (the first ten in id order) and {@code mergeConflicts} (accounts a split-brain merge left below
     * their overdraft limit, listed in {@code /cluster/merges}). For FEE and INTEREST, {@code accountsProcessed} is
     * {@code applied + rejected + skipped}; a FEE skips an account only when its record of the job is gone (see {@link
     * JobTally#skipped()}).
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record JobView(String id, String run, String type, String state, int partitionsDone, int partitionsTotal,
                   long accountsProcessed, String startedAt,
                   @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String finishedAt,
                   @Nullable Long amount, @Nullable Integer rateBasisPoints, boolean concurrent,
                   @Nullable String schedule,
                   @Nullable Long applied, @Nullable Long rejected, @Nullable Long skipped,
                   @Nullable Long charged, @Nullable Long paid,
                   @Nullable Long mismatches, @Nullable List<String> mismatchIds, @Nullable Long mergeConflicts,
                   @Nullable String error) {

        static JobView of(Job job) {
            JobType type = job.type();
            JobTally tally = job.tally();
            boolean moves = type != JobType.AUDIT;
            return new JobView(job.id(), job.run(), type.name(), job.state().name(), job.partitionsDone(),
                    HazelcastConfigs.PARTITION_COUNT, tally.accounts(),
                    Instant.ofEpochMilli(job.startedAt()).toString(),
                    job.finishedAt() == 0 ? null : Instant.ofEpochMilli(job.finishedAt()).toString(),
                    type == JobType.FEE ? job.spec().amount() : null,
                    type == JobType.INTEREST ? job.spec().rateBasisPoints() : null,
                    job.spec().concurrent(), job.schedule(),
                    moves ? tally.applied() : null, moves ? tally.rejected() : null, moves ? tally.skipped() : null,
                    type == JobType.FEE ? tally.moved() : null, type == JobType.INTEREST ? tally.moved() : null,
                    moves ? null : tally.mismatches(), moves ? null : tally.mismatchIds(),
                    moves ? null : tally.mergeConflicts(), job.error());
        }
    }
}
