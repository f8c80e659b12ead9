package io.partita.web;

import io.micronaut.core.annotation.Order;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test only: writes down every (method, path, status) a node in the unit tests answered, one line each, to
 * {@code target/openapi-observed/<pid>.txt} (one file per test JVM), so that {@code OpenApiContractIT}, which runs
 * after the unit tests, can check that every status the OpenAPI document promises was produced by some test. Each
 * distinct line is written once.
 * <b>Threads:</b> its response filter runs on every request's completing thread at once; the set of lines seen is
 * concurrent, and each new line is appended under this class's lock, which also guards {@code started}.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ObservedAnswers {

    static final Path DIRECTORY = Path.of("target", "openapi-observed");
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    @ResponseFilter
    void record(HttpRequest<?> request, MutableHttpResponse<?> response) {
        String line = request.getMethod() + " " + request.getPath() + " " + response.getStatus().getCode();
        if (SEEN.add(line)) {
            append(line);
        }
    }

    private static boolean started;

    private static synchronized void append(String line) {
        try {
            if (!started) {
                // What an earlier run of the tests wrote would count for this one; what the other test JVMs of this
                // run write (Surefire starts them together) must stay. So only files last written before this JVM
                // started go.
                started = true;
                Instant born = ProcessHandle.current().info().startInstant()
                        .orElseThrow(() -> new IllegalStateException("this JVM's start time is not known"));
                if (Files.isDirectory(DIRECTORY)) {
                    try (var old = Files.list(DIRECTORY)) {
                        for (Path file : old.toList()) {
                            if (Files.getLastModifiedTime(file).toInstant().isBefore(born)) {
                                Files.delete(file);
                            }
                        }
                    }
                }
            }
            Files.createDirectories(DIRECTORY);
            Files.writeString(DIRECTORY.resolve(ProcessHandle.current().pid() + ".txt"), line + "\n",
                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
