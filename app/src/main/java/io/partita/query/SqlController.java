package io.partita.query;

import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.validation.Validated;
import io.partita.web.ApiDocs;
import io.partita.web.BodyRefusals;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;

/**
 * {@code POST /sql}: one read-only SELECT over the published mappings, answered as columns and rows.
 * <b>Threads:</b> Micronaut runs it on the HTTP blocking pool, many queries at once (bounded by {@link SqlPermits});
 * it keeps only a final reference to {@link SqlService}.
 */
@Controller("/sql")
@Validated
class SqlController {

    private final SqlService sql;

    SqlController(SqlService sql) {
        this.sql = sql;
    }

    @Operation(operationId = "query")
    @ApiResponse(responseCode = "200", description = "The rows, at most maxRows, and whether they were truncated")
    @BodyRefusals
    @ApiResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @Post
    @ExecuteOn(TaskExecutors.BLOCKING)
    SqlApi.Answer query(@Valid @Body SqlApi.Query body) {
        return sql.query(body.sql(), body.params());
    }
}
