package io.partita.bench;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.serde.annotation.Serdeable;

/**
 * The framework's ceiling: an endpoint shaped like {@code POST /accounts/{id}/transactions} (same path depth, same
 * JSON in and out) that touches no grid. Only the benchmark jar carries it; a node started from the app jar has none.
 */
@Controller("/bench/noop")
class NoopController {

    @Serdeable
    record Body(String txId, String type, long amount) {
    }

    @Serdeable
    record Answer(String txId, String accountId, String status, long balance) {
    }

    @Post("/{id}/transactions")
    Answer post(@PathVariable String id, @io.micronaut.http.annotation.Body Body body) {
        return new Answer(body.txId(), id, "APPLIED", body.amount());
    }
}
