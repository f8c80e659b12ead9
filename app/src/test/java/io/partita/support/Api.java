package io.partita.support;

import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * A test's view of one node's API through Micronaut's HTTP client: every answer, error or not, as a status, its
 * headers and its JSON body parsed into maps and lists.
 */
public final class Api {

    private final HttpClient client;
    private final JsonMapper json;

    public Api(HttpClient client, JsonMapper json) {
        this.client = client;
        this.json = json;
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

        @Override
        public String toString() {
            return status + " " + body;
        }
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
