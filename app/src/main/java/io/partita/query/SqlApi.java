package io.partita.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import io.partita.web.StrictJson;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import java.util.List;

/** The bodies of {@code POST /sql} (app/README.md, "SQL (read-only)"). */
final class SqlApi {

    static final int MAX_PARAMS = 100;

    private SqlApi() {
    }

    /**
     * @param sql    one SELECT over the published mappings, with {@code ?} for each parameter
     * @param params the parameters in order: strings, numbers, booleans or null
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Query(@NotBlank @StrictJson.Text String sql, @Nullable @Size(max = MAX_PARAMS) List<Object> params) {
    }

    /**
     * @param columns       the column names in order, as the rows hold their values
     * @param columnTypes   the SQL type of each column, in the same order
     * @param rows          at most {@code maxRows} rows, each a list of values in column order
     * @param truncated     whether the query had more rows than the answer carries
     * @param maxRows       the cap on rows this node applies ({@code partita.sql.max-rows})
     * @param timeoutMillis the cap on a query's time this node applies ({@code partita.sql.timeout})
     */
    @Serdeable
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Answer(List<String> columns, List<String> columnTypes, List<List<Object>> rows, int rowCount,
                  boolean truncated, int maxRows, long timeoutMillis) {
    }
}
