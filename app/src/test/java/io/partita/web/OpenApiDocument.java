package io.partita.web;

import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** The OpenAPI document the build wrote into the node's classes, read as the tests need it. */
record OpenApiDocument(Map<String, Object> root) {

    private static final Set<String> VERBS = Set.of("get", "post", "put", "delete", "patch");

    static OpenApiDocument load() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(OpenApiController.DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException("No " + OpenApiController.DOCUMENT + ": has the build written it?");
            }
            return new OpenApiDocument(new Yaml().load(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** "METHOD /path/{param}" to the statuses documented for it, each with its response object. */
    Map<String, Map<Integer, Map<String, Object>>> operations() {
        Map<String, Map<Integer, Map<String, Object>>> operations = new TreeMap<>();
        map(root.get("paths")).forEach((path, item) -> map(item).forEach((verb, operation) -> {
            if (!VERBS.contains(verb)) {
                return;
            }
            Map<Integer, Map<String, Object>> statuses = new TreeMap<>();
            map(map(operation).get("responses")).forEach((status, response) ->
                    statuses.put(Integer.valueOf(status), map(response)));
            operations.put(verb.toUpperCase(Locale.ROOT) + " " + path, statuses);
        }));
        return operations;
    }

    /** Whether {@code operation} ("METHOD /path") takes a request body. */
    boolean readsBody(String operation) {
        int space = operation.indexOf(' ');
        Map<String, Object> item = map(map(root.get("paths")).get(operation.substring(space + 1)));
        return map(item.get(operation.substring(0, space).toLowerCase(Locale.ROOT))).containsKey("requestBody");
    }

    /** The media types of {@code response}'s body, or of the shared response it refers to; empty for none. */
    Set<String> bodyTypes(Map<String, Object> response) {
        Object ref = response.get("$ref");
        Map<String, Object> resolved = ref == null ? response
                : map(map(map(root.get("components")).get("responses")).get(ref.toString()
                        .substring("#/components/responses/".length())));
        return resolved == null || resolved.get("content") == null ? Set.of() : map(resolved.get("content")).keySet();
    }

    /** The documented operation {@code method} and a concrete {@code path} fall under, or null. */
    static String operationOf(Set<String> operations, String method, String path) {
        for (String operation : operations) {
            int space = operation.indexOf(' ');
            if (operation.substring(0, space).equals(method)
                    && Pattern.matches(operation.substring(space + 1).replaceAll("\\{[^/]+}", "[^/]+"), path)) {
                return operation;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
