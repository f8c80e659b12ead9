package io.partita.support;

import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A test's view of one node's API through Micronaut's HTTP client: every answer, error or not, as a status, its
 * headers and its JSON body parsed into maps and lists.
 *
 * <p>A {@code @MicronautTest} injects one for its own node ({@code @Inject Api api}); a test with several nodes
 * builds one per node with {@link #of(TestNodes, int)}.
 */
@Singleton
public final class Api {

    private final HttpClient client;
    private final JsonMapper json;

    @Inject
    public Api(@Client("/") HttpClient client, JsonMapper json) {
        this.client = client;
        this.json = json;
    }

    /** The API of node {@code index} of {@code nodes}. */
    public static Api of(TestNodes nodes, int index) {
        JsonMapper json = nodes.servers().get(index).getApplicationContext().getBean(JsonMapper.class);
        return new Api(nodes.client(index), json);
    }

    /** {@code retry} answered {@code status} as a replay, with the body {@code first} had. */
    public static void assertReplayOf(Reply first, Reply retry, int status) {
        assertEquals(status, retry.status(), retry.toString());
        assertEquals(first.map(), retry.map());
        assertEquals("true", retry.headers().get("Idempotent-Replayed"));
    }

    /** {@code prefix} and eight random hex digits: an id no other test run uses. */
    public static String uniqueId(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Opens an account with the fields of {@code body} besides its id (a new one, starting with {@code prefix}). */
    public String openAccount(String prefix, Map<String, Object> fields) {
        String id = uniqueId(prefix);
        Map<String, Object> body = new LinkedHashMap<>(fields);
        body.put("id", id);
        Reply opened = post("/accounts", body);
        assertEquals(201, opened.status(), opened.toString());
        return id;
    }

    /** @param body the JSON as a string, sent as it is (so tests can send malformed JSON too) */
    public record Reply(int status, HttpHeaders headers, String contentType, Object body) {

        @SuppressWarnings("unchecked")
        public Map<String, Object> map() {
            return (Map<String, Object>) body;
        }

        @SuppressWarnings("unchecked")
        public List<Map<String, Object>> list() {
            return (List<Map<String, Object>>) body;
        }

        public long number(String field) {
            return ((Number) map().get(field)).longValue();
        }

        public String text(String field) {
            return (String) map().get(field);
        }

        /** The {@code errors} of a problem, as {@code {field, message}} maps. */
        @SuppressWarnings("unchecked")
        public List<Map<String, Object>> errors() {
            return (List<Map<String, Object>>) map().get("errors");
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }

    /** The body of a {@code GET} as text (for answers that are not JSON); an error status throws. */
    public String text(String path) {
        return client.toBlocking().retrieve(path);
    }

    public Reply get(String path) {
        return send(HttpRequest.GET(path));
    }

    public Reply post(String path, String body) {
        return send(HttpRequest.POST(path, body).contentType(MediaType.APPLICATION_JSON_TYPE));
    }

    /** {@code body} (maps, lists, numbers, strings) written as JSON, for tests that build bodies as values. */
    public Reply post(String path, Object body) {
        try {
            return post(path, json.writeValueAsString(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Reply put(String path, String body) {
        return send(HttpRequest.PUT(path, body).contentType(MediaType.APPLICATION_JSON_TYPE));
    }

    public Reply delete(String path) {
        return send(HttpRequest.DELETE(path));
    }

    public Reply send(MutableHttpRequest<?> request) {
        HttpResponse<String> response;
        try {
            response = client.toBlocking().exchange(request, String.class);
        } catch (HttpClientResponseException e) {
            @SuppressWarnings("unchecked")
            HttpResponse<Object> error = (HttpResponse<Object>) e.getResponse();
            String text = error.getBody(String.class).orElse("");
            return new Reply(error.code(), error.getHeaders(), error.getContentType().map(MediaType::toString)
                    .orElse(""), parse(text));
        }
        String text = response.getBody().orElse("");
        return new Reply(response.code(), response.getHeaders(),
                response.getContentType().map(MediaType::toString).orElse(""), parse(text));
    }

    private Object parse(String text) {
        if (text.isBlank()) {
            return null;
        }
        try {
            return json.readValue(text, Argument.OBJECT_ARGUMENT);
        } catch (IOException e) {
            throw new UncheckedIOException("Not JSON: " + text, e);
        }
    }
}
