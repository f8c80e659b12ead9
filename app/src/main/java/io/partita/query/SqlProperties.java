package io.partita.query;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.time.Duration;

/**
 * The caps of {@code POST /sql}, under {@code partita.sql.*} ({@code PARTITA_SQL_MAX_ROWS}, ...).
 *
 * @param maxRows       the most rows an answer carries; the answer says whether the query had more
 * @param timeout       a query still running after this long is cancelled by the engine
 * @param maxLength     statements longer than this many characters are refused unread, and so are string parameters
 * @param maxConcurrent the most queries this node runs at once; past it a query is answered 503 at once
 */
@ConfigurationProperties("partita.sql")
record SqlProperties(@Bindable(defaultValue = "1000") @Min(1) @Max(100_000) int maxRows,
                     @Bindable(defaultValue = "5s") @NotNull Duration timeout,
                     @Bindable(defaultValue = "4000") @Min(100) @Max(100_000) int maxLength,
                     @Bindable(defaultValue = "4") @Min(1) @Max(1_000) int maxConcurrent) {
}
