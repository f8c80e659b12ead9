package io.partita.client;

import java.util.Map;

/**
 * A job over every account (FEE, INTEREST, AUDIT) and its progress, as {@code GET /jobs/{id}} shows it.
 *
 * @param state      RUNNING, COMPLETED or FAILED
 * @param finishedAt null while it runs
 * @param results    the fields of its type's result, by name: FEE {@code applied}, {@code rejected}, {@code skipped},
 *                   {@code charged}; INTEREST {@code applied}, {@code rejected}, {@code skipped}, {@code paid}; AUDIT
 *                   {@code mismatches}, {@code mismatchIds}, {@code mergeConflicts}; and {@code error} when it failed
 */
public record JobStatus(String id, String type, String state, int partitionsDone, int partitionsTotal,
                        long accountsProcessed, String startedAt, String finishedAt, Map<String, Object> results) {

    public boolean finished() {
        return !"RUNNING".equals(state);
    }

    /** A whole-number result field ({@code mismatches}, {@code applied}, ...), or null when the type has none. */
    public Long count(String field) {
        return results.get(field) instanceof Number n ? n.longValue() : null;
    }
}
