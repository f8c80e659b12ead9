package io.partita.web;

import io.partita.support.Api;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A node whose member has stopped while its HTTP server still takes requests (the moment a rolling restart's SIGTERM
 * reaches it) answers a write and a read 503 problem+json with Retry-After, naming no class: before, the write failed
 * in its controller as an unhandled 500, which a client does not retry.
 */
class NodeStoppingTest {

    @Test
    void shouldAnswer503WithRetryAfterOnceItsMemberHasStopped() {
        try (TestNodes nodes = TestNodes.start(1)) {
            Api api = Api.of(nodes, 0);
            String id = api.openAccount("stopping", Map.of("balance", 100));
            nodes.member(0).getLifecycleService().terminate();

            for (Api.Reply reply : new Api.Reply[] {
                api.post("/accounts/" + id + "/transactions", "{\"txId\":\"t-1\",\"type\":\"DEBIT\",\"amount\":1}"),
                api.get("/accounts/" + id)}) {
                assertEquals(503, reply.status(), reply.toString());
                assertEquals(Problem.MEDIA_TYPE, reply.contentType(), reply.toString());
                assertEquals("1", reply.headers().get("Retry-After"), reply.toString());
                assertEquals(Problem.TYPE_BASE + "unavailable", reply.text("type"), reply.toString());
                assertFalse(reply.toString().contains("Hazelcast"), reply.toString());
            }
        }
    }
}
