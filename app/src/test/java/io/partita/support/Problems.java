package io.partita.support;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every refused request answers: an {@code application/problem+json} body with nothing internal in it. */
public final class Problems {

    private Problems() {
    }

    /** A problem+json answer with the status given, its {@code type,title,status,detail}, and nothing internal. */
    public static void assertProblem(Api.Reply reply, int status) {
        assertProblem(reply, status, null);
    }

    /**
     * As {@link #assertProblem(Api.Reply, int)}, and when {@code field} is not null, the first of its
     * {@code errors} names that field.
     */
    public static void assertProblem(Api.Reply reply, int status, String field) {
        assertEquals(status, reply.status(), reply.toString());
        assertEquals("application/problem+json", reply.contentType(), reply.toString());
        Map<String, Object> problem = reply.map();
        assertEquals(status, ((Number) problem.get("status")).intValue());
        assertNotNull(problem.get("type"));
        assertNotNull(problem.get("title"));
        assertNotNull(problem.get("detail"));
        if (field != null) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> errors = (List<Map<String, Object>>) problem.get("errors");
            assertEquals(field, errors.get(0).get("field"), reply.toString());
        }
        String text = String.valueOf(problem);
        for (String leak : List.of("Exception", "io.partita", "com.hazelcast", "java.", "\tat ")) {
            assertFalse(text.contains(leak), "leaks " + leak + ": " + text);
        }
    }

    /** A 400 problem (as {@link #assertProblem(Api.Reply, int)}) one of whose {@code errors} names {@code field}. */
    public static void assertProblemNaming(Api.Reply reply, String field) {
        assertProblemNaming(reply, field, "the request");
    }

    /** As {@link #assertProblemNaming(Api.Reply, String)}; a failure names {@code sent}, what was sent. */
    public static void assertProblemNaming(Api.Reply reply, String field, Object sent) {
        assertProblem(reply, 400);
        List<Map<String, Object>> errors = reply.errors();
        assertNotNull(errors, sent + " answered " + reply);
        assertTrue(errors.stream().anyMatch(error -> field.equals(error.get("field"))), sent + " answered " + reply);
    }

    /** A 400 whose errors are exactly one: {@code message} about {@code field}. */
    public static void assertOnlyError(Api.Reply reply, String field, String message) {
        assertEquals(400, reply.status(), reply.toString());
        assertEquals(List.of(Map.of("field", field, "message", message)), reply.errors());
    }
}
