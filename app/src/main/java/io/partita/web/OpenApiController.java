package io.partita.web;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

import java.net.URI;

/**
 * The HTTP contract as the build wrote it from the controllers: {@code GET /openapi} answers the OpenAPI document
 * (YAML), and {@code GET /openapi/ui} leads to a Swagger UI page that reads it. The page's script and style sheets are
 * static resources under {@code /swagger-ui/} ({@code micronaut.router.static-resources.openapi-ui}), so it works
 * with no internet access. Both are open to anyone, as {@code /health} is: they describe the API, not its data.
 */
@Controller("/openapi")
class OpenApiController {

    /** Where micronaut-openapi writes the document ({@code app/openapi.properties}). */
    static final String DOCUMENT = "/META-INF/swagger/partita.yml";
    static final String YAML = "application/yaml";

    private final byte[] document;

    OpenApiController() {
        this.document = BuiltIn.read(DOCUMENT, "The OpenAPI document");
    }

    @Operation(operationId = "openapi", summary = "This document: every route, body, status and problem type")
    @ApiResponse(responseCode = "200", description = "The OpenAPI document",
            content = @Content(mediaType = YAML))
    @Get(produces = YAML)
    HttpResponse<byte[]> document() {
        return HttpResponse.ok(document).contentType(YAML);
    }

    @Operation(operationId = "openapiUi", summary = "A Swagger UI page that reads this document")
    @ApiResponse(responseCode = "303", description = "To the page, served by this node")
    @Get(value = "/ui", produces = MediaType.TEXT_HTML)
    HttpResponse<Void> ui() {
        return HttpResponse.seeOther(URI.create("/swagger-ui/index.html"));
    }
}
