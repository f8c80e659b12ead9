package io.partita.job;

import io.micronaut.scheduling.cron.CronExpression;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Cron expressions, parsed by Micronaut's own {@link CronExpression}: 5 fields (minute hour day-of-month month
 * day-of-week) or 6 with seconds first. Times are UTC.
 */
final class Cron {

    private Cron() {
    }

    /** @throws IllegalArgumentException with a reason a client can act on, when the expression is not valid */
    static CronExpression parse(String expression) {
        CronExpression cron = CronExpression.create(expression.trim());
        // Parsing accepts expressions that never fire (30 February); finding the next time refuses them.
        cron.nextTimeAfter(ZonedDateTime.now(ZoneOffset.UTC));
        return cron;
    }

    /** The first firing after {@code after}, or -1 when there is none. */
    static long next(String expression, long after) {
        try {
            return next(CronExpression.create(expression.trim()), after);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    /**
     * The firings in ({@code after}, {@code now}], oldest first, at most {@code max} of them.
     *
     * @return epoch milliseconds of each firing
     */
    static List<Long> due(String expression, long after, long now, int max) {
        CronExpression cron;
        try {
            cron = CronExpression.create(expression.trim());
        } catch (IllegalArgumentException e) {
            return List.of();
        }
        List<Long> due = new ArrayList<>();
        long at = next(cron, after);
        while (at >= 0 && at <= now && due.size() < max) {
            due.add(at);
            at = next(cron, at);
        }
        return due;
    }

    private static long next(CronExpression cron, long after) {
        try {
            return cron.nextTimeAfter(Instant.ofEpochMilli(after).atZone(ZoneOffset.UTC)).toInstant().toEpochMilli();
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }
}
