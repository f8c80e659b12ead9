package io.partita.web;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.event.ShutdownEvent;
import io.partita.support.Api;
import io.partita.support.TestNodes;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * Once a node's stop has begun, Micronaut destroys its beans one by one while its HTTP server still takes
     * requests. A request to a controller not built yet used to build it, and a new member with it: a second member
     * in the stopping process, on the node's data directory. Now no member starts, and the request is the same 503.
     */
    @Test
    void shouldStartNoSecondMemberWhenARequestArrivesWhileTheNodeStops() {
        try (TestNodes nodes = TestNodes.start(1)) {
            ApplicationContext context = nodes.servers().get(0).getApplicationContext();
            String cluster = nodes.member(0).getConfig().getClusterName();
            // The stop as Micronaut runs it: announced first, then each bean destroyed, the member among the first.
            context.publishEvent(new ShutdownEvent(context));
            context.destroyBean(HazelcastInstance.class);

            // No request has built the cluster view's controller yet; building it now needs a member.
            Api.Reply reply = Api.of(nodes, 0).get("/cluster");

            assertEquals(503, reply.status(), reply.toString());
            assertEquals(Problem.MEDIA_TYPE, reply.contentType(), reply.toString());
            assertEquals("1", reply.headers().get("Retry-After"), reply.toString());
            assertEquals(Problem.TYPE_BASE + "unavailable", reply.text("type"), reply.toString());
            assertFalse(reply.toString().contains("Hazelcast"), reply.toString());
            assertTrue(Hazelcast.getAllHazelcastInstances().stream()
                    .noneMatch(member -> member.getConfig().getClusterName().equals(cluster)),
                    "a member of the stopping node's cluster is running again");
            nodes.stop(0);
        }
    }
}
