package io.partita.web;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;

/**
 * {@code GET /}: the dashboard page. Its script and style sheet are static resources under {@code /dashboard/}
 * ({@code micronaut.router.static-resources.dashboard}); everything it shows comes from the JSON views under
 * {@code /cluster}, so the page works with no internet access.
 * <b>Threads:</b> Micronaut calls it on the HTTP blocking pool (thread selection AUTO: its answer is not
 * asynchronous), many requests at once; the page is read once, when the bean is built, and only read after that, so
 * every request can send the same bytes.
 */
@Controller
class DashboardController {

    static final String PAGE = "/dashboard/index.html";

    private final byte[] page;

    DashboardController() {
        this.page = BuiltIn.read(PAGE, "The dashboard page");
    }

    @Operation(operationId = "dashboard")
    @ApiResponse(responseCode = "200", description = "The dashboard page")
    @ApiResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @Get(produces = MediaType.TEXT_HTML)
    HttpResponse<byte[]> dashboard() {
        return HttpResponse.ok(page).contentType(MediaType.TEXT_HTML_TYPE).header("Cache-Control", "no-cache");
    }
}
