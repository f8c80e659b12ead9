package io.partita.schedule;

import io.micronaut.scheduling.cron.CronExpression;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Cron expressions, parsed by Micronaut's own {@link CronExpression}: 5 fields (minute hour day-of-month month
 * day-of-week) or 6 with seconds first. Times are UTC.
 *
 * <p>Micronaut's parser does not refuse every bad expression with an IllegalArgumentException: a step of 0
 * ({@code *}{@code /0}) divides by zero when the next time is computed, and {@code L} or {@code ?#2} in the
 * day-of-week field end in a NullPointerException. So an expression is valid here only once a next firing has been
 * computed from it, any runtime exception on the way means "not valid", and a step of 0 is refused before Micronaut
 * sees it. The schedule trigger reads stored expressions the same way: one that fails is one that never fires.
 */
final class Cron {

    /** A step of zero ({@code /0}, {@code /00}, ...) in any field. */
    private static final Pattern ZERO_STEP = Pattern.compile("/0+(?![0-9])");

    private Cron() {
    }

    /** @throws IllegalArgumentException when the expression is not valid or never fires */
    static CronExpression parse(String expression) {
        String trimmed = expression.trim();
        if (ZERO_STEP.matcher(trimmed).find()) {
            throw new IllegalArgumentException("A step of 0 never advances");
        }
        try {
            CronExpression cron = CronExpression.create(trimmed);
            // Parsing accepts expressions that never fire (30 February); finding the next time refuses them.
            cron.nextTimeAfter(ZonedDateTime.now(ZoneOffset.UTC));
            return cron;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Not a cron expression that fires", e);
        }
    }

    /** The first firing after {@code after}, or -1 when there is none. */
    static long next(String expression, long after) {
        try {
            return next(parse(expression), after);
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
            cron = parse(expression);
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
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
