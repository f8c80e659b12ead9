package io.partita.web;

import java.util.List;
import java.util.regex.Pattern;

/** What must never appear in an answer: a class or package name of ours or a library's, an exception, a frame. */
final class Leaks {

    static final List<Pattern> PATTERNS = List.of(
            Pattern.compile("io\\.partita"), Pattern.compile("java\\."), Pattern.compile("javax\\."),
            Pattern.compile("com\\.hazelcast"), Pattern.compile("io\\.micronaut"), Pattern.compile("io\\.netty"),
            Pattern.compile("com\\.fasterxml"), Pattern.compile("Exception"), Pattern.compile("\\bat [\\w$.]+\\("),
            Pattern.compile("\\.java:\\d+"));

    private Leaks() {
    }

    static boolean found(String body) {
        return PATTERNS.stream().anyMatch(p -> p.matcher(body).find());
    }

    /** A leak the request did not put there itself (an answer may quote a value the client sent, such as a cron). */
    static boolean foundBeyond(String body, String request) {
        return PATTERNS.stream().anyMatch(p -> p.matcher(body).find() && !p.matcher(request).find());
    }
}
