package io.partita.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

import java.util.List;

/**
 * An RFC 9457 problem: the body of every error answer, sent as {@code application/problem+json}.
 *
 * @param errors the fields at fault, when the request was invalid
 */
@Serdeable
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, @Nullable List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    static final String TYPE_BASE = "https://partita.dev/problems/";

    @Serdeable
    public record FieldError(String field, String message) {
    }
}
