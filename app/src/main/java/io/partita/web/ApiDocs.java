package io.partita.web;

/**
 * The shared responses of the OpenAPI document ({@code app/src/main/openapi/problems.yml}), by the reference the
 * controllers' {@code @ApiResponse} annotations give: one per refusal status, each with the problem+json body and the
 * problem types {@link Refusals} gives that status.
 */
public final class ApiDocs {

    /** The problem+json body's schema. */
    public static final String PROBLEM = "#/components/schemas/Problem";
    private static final String RESPONSES = "#/components/responses/";
    public static final String BAD_REQUEST = RESPONSES + "BadRequest";
    public static final String NOT_FOUND = RESPONSES + "NotFound";
    public static final String CONFLICT = RESPONSES + "Conflict";
    public static final String GONE = RESPONSES + "Gone";
    public static final String TOO_LARGE = RESPONSES + "TooLarge";
    public static final String UNSUPPORTED_MEDIA_TYPE = RESPONSES + "UnsupportedMediaType";
    public static final String UNAVAILABLE = RESPONSES + "Unavailable";

    private ApiDocs() {
    }
}
