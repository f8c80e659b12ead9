package io.partita.lease;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.web.Ids;
import io.partita.web.StrictJson;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.math.BigDecimal;
import java.util.List;

/** The JSON bodies of the lease routes. Numbers are JSON integers only ({@link StrictJson}). */
final class LeaseApi {

    static final String MAX_SHARDS = "10000";
    static final String MAX_LEASE_SECONDS = "300";
    static final long DEFAULT_LEASE_SECONDS = 10;

    private LeaseApi() {
    }

    /** {@code PUT /groups/{group}}. */
    @Serdeable
    record CreateGroup(@NotNull @StrictJson.Whole @DecimalMin("1") @DecimalMax(MAX_SHARDS) BigDecimal shards,
                       @Nullable @StrictJson.Whole @DecimalMin("1") @DecimalMax(MAX_LEASE_SECONDS)
                       BigDecimal leaseSeconds) {

        long leaseMillis() {
            return (leaseSeconds == null ? DEFAULT_LEASE_SECONDS : leaseSeconds.longValueExact()) * 1000;
        }
    }

    /**
     * {@code POST /groups/{group}/workers}: {@code requestId} makes a retried join find the worker its first attempt
     * created.
     */
    @Serdeable
    record Join(@Nullable @StrictJson.Text @Pattern(regexp = Ids.PATTERN, message = Ids.MESSAGE) String requestId) {
    }

    /** {@code POST /groups/{group}/fences/check}. */
    @Serdeable
    record Check(@NotNull @StrictJson.Whole @DecimalMin("0") @DecimalMax(MAX_SHARDS) BigDecimal shard,
                 @NotNull @StrictJson.Whole @DecimalMin("0") @DecimalMax("9223372036854775807") BigDecimal token) {
    }

    @Serdeable
    record Grant(int shard, long token) {
    }

    /** A worker's lease: its id, how long it lasts from now, and the shards it holds, each with its token. */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Lease(String group, String workerId, long leaseMillis, List<Grant> shards) {

        static Lease of(String group, LeaseAnswer answer) {
            return new Lease(group, answer.workerId(), answer.leaseMillis(),
                    answer.grants().stream().map(g -> new Grant(g.shard(), g.token())).toList());
        }
    }

    @Serdeable
    record CheckAnswer(int shard, long token, boolean current, @Nullable Long currentToken) {
    }

    @Serdeable
    record WorkerView(String workerId, long expiresInMillis, int shards) {
    }

    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ShardView(int shard, @Nullable String holder, long token, @Nullable String movingTo) {
    }

    /**
     * {@code GET /groups/{group}}: its workers, shards waiting for a hand-over, what happened since it was created,
     * and (not in {@code GET /groups}) each shard's holder and token.
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record GroupView(String group, int shards, long leaseMillis, List<WorkerView> workers, int handOvers,
                     long grants, long moves, long expiries, @Nullable List<ShardView> assignment) {

        static GroupView of(String group, LeaseGroup state, long now, boolean withAssignment) {
            List<ShardView> assignment = null;
            if (withAssignment) {
                assignment = new java.util.ArrayList<>(state.shards());
                for (int s = 0; s < state.shards(); s++) {
                    assignment.add(new ShardView(s, state.holder(s), state.token(s), state.pendingTo(s)));
                }
            }
            List<WorkerView> workers = state.workers().values().stream()
                    .sorted(java.util.Comparator.comparing(LeaseGroup.Worker::id))
                    .map(w -> new WorkerView(w.id(), Math.max(0, w.expiresAt() - now), state.held(w.id()).size()))
                    .toList();
            LeaseGroup.Changes totals = state.totals();
            return new GroupView(group, state.shards(), state.leaseMillis(), workers, state.handOvers(),
                    totals.grants(), totals.moves(), totals.expiries(), assignment);
        }
    }

    /** The answer to {@code PUT /groups/{group}}. */
    @Serdeable
    record GroupSummary(String group, int shards, long leaseMillis) {
    }


}
