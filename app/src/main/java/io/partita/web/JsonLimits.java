package io.partita.web;

import com.fasterxml.jackson.core.StreamReadConstraints;
import io.micronaut.context.ApplicationContextBuilder;
import io.micronaut.context.ApplicationContextConfigurer;
import io.micronaut.context.annotation.ContextConfigurer;

/**
 * Bounds what the JSON parser reads, token by token, whatever the route: nesting depth, the digits of one number,
 * the characters of one string and of one field name. Partita's bodies are at most two levels deep, their numbers
 * 19 digits, their strings ids (64), cron expressions (200) and SQL statements ({@code partita.sql.max-length},
 * 4000); Jackson's own defaults (depth 1000, numbers of 1000 digits, strings of 20 million characters) let one
 * request cost far more than it could mean. Past a bound the parser stops and the request is a 400 problem+json,
 * like any malformed body.
 *
 * <p>Micronaut Serde builds its Jackson factory without a hook for these, so they are set as Jackson's defaults for
 * this JVM, once, as the application context is being built (before any parser exists). Hazelcast shades its own
 * Jackson and is not affected.
 */
@ContextConfigurer
public final class JsonLimits implements ApplicationContextConfigurer {

    public static final int MAX_DEPTH = 32;
    public static final int MAX_NUMBER_LENGTH = 64;
    public static final int MAX_STRING_LENGTH = 65_536;
    public static final int MAX_NAME_LENGTH = 1_024;

    @Override
    public void configure(ApplicationContextBuilder builder) {
        apply();
    }

    static void apply() {
        StreamReadConstraints.overrideDefaultStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .maxStringLength(MAX_STRING_LENGTH)
                .maxNameLength(MAX_NAME_LENGTH)
                .build());
    }
}
