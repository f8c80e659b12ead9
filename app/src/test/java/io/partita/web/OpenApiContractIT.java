package io.partita.web;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAPI document against what the nodes of the unit tests answered ({@link ObservedAnswers} wrote it down): every
 * status the document promises for a route was produced by some test, and every status a test produced on a route that
 * is a decision of that route (not one any route can give, as 401 and 403 with credentials on, 405, 414, 415 for a body
 * that is not JSON, 431, or a 500 that a test provokes to see that nothing leaks) is documented. It runs after the unit
 * tests, so it needs the whole unit suite to have run first, as {@code mvn -B verify} does.
 */
class OpenApiContractIT {

    /**
     * Statuses the edge gives on any route before a controller decides anything; app/README.md's Security and input
     * limits sections describe them.
     */
    private static final Set<Integer> ANY_ROUTE = Set.of(401, 403, 405, 406, 413, 414, 415, 431, 500);

    /**
     * A body past its route's limit is answered 413 by a Netty handler ({@link BodyLimits}) before any filter sees the
     * request, so {@link ObservedAnswers} cannot see it; {@code InputLimitsTest} checks it over a raw socket. A batch's
     * own 413 (too many items) is a controller's, and is observed.
     */
    private static final int EDGE_TOO_LARGE = 413;

    @Test
    void shouldProduceEveryDocumentedStatusAndDocumentEveryStatusARouteDecides() throws IOException {
        Map<String, Map<Integer, Map<String, Object>>> documented = OpenApiDocument.load().operations();
        Map<String, Set<Integer>> observed = observed(documented.keySet());

        Set<String> neverProduced = new TreeSet<>();
        documented.forEach((operation, statuses) -> statuses.keySet().forEach(status -> {
            if (!observed.getOrDefault(operation, Set.of()).contains(status) && status != EDGE_TOO_LARGE) {
                neverProduced.add(operation + " " + status);
            }
        }));
        Set<String> undocumented = new TreeSet<>();
        observed.forEach((operation, statuses) -> statuses.forEach(status -> {
            if (!documented.get(operation).containsKey(status) && !ANY_ROUTE.contains(status)) {
                undocumented.add(operation + " " + status);
            }
        }));

        assertEquals(Set.of(), neverProduced, "documented, but no unit test's node answered it");
        assertEquals(Set.of(), undocumented, "answered by a node in the unit tests, but not documented");
    }

    private static Map<String, Set<Integer>> observed(Set<String> operations) throws IOException {
        assertTrue(Files.isDirectory(ObservedAnswers.DIRECTORY),
                "no answers observed: run the unit tests first (mvn -B verify)");
        Map<String, Set<Integer>> observed = new TreeMap<>();
        try (Stream<Path> files = Files.list(ObservedAnswers.DIRECTORY)) {
            for (Path file : files.toList()) {
                for (String line : Files.readAllLines(file)) {
                    String[] parts = line.split(" ");
                    String operation = OpenApiDocument.operationOf(operations, parts[0], parts[1]);
                    if (operation != null) {
                        observed.computeIfAbsent(operation, key -> new TreeSet<>()).add(Integer.valueOf(parts[2]));
                    }
                }
            }
        }
        return observed;
    }
}
