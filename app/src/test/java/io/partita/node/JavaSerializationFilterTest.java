package io.partita.node;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.support.TestCluster;
import org.example.foreign.ForeignTask;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every member refuses, over the wire, a Java-serialized class outside Partita's, Hazelcast's and the JDK's. */
class JavaSerializationFilterTest {

    @Test
    void shouldRefuseAForeignClassSentToAnotherMemberAndNeverRunItWhileJdkTypesStillCross() throws Exception {
        try (TestCluster cluster = TestCluster.start(2)) {
            HazelcastInstance sender = cluster.member(0);
            Member target = cluster.member(1).getCluster().getLocalMember();
            ForeignTask.RUNS.set(0);
            ForeignTask.READS.set(0);

            ExecutionException refused = assertThrows(ExecutionException.class, () -> sender.getExecutorService(
                    "filter-test").submitToMember(new ForeignTask(), target).get(30, TimeUnit.SECONDS));

            assertEquals(0, ForeignTask.RUNS.get(), "the foreign task ran on the member");
            assertEquals(0, ForeignTask.READS.get(), "the foreign class was instantiated");
            assertTrue(String.valueOf(refused.getCause()).contains(ForeignTask.class.getName()),
                    "refusal names the class: " + refused.getCause());

            // A foreign value written to a map cannot be read back on any member either.
            IMap<String, Object> map = sender.getMap("filter-test");
            map.put("gadget", new ForeignTask());
            for (HazelcastInstance member : cluster.members()) {
                assertThrows(RuntimeException.class, () -> member.getMap("filter-test").get("gadget"));
            }
            assertEquals(0, ForeignTask.READS.get(), "the foreign class was instantiated");

            // The JDK types Hazelcast itself sends with Java serialization still cross.
            ArrayList<Object> jdk = new ArrayList<>(List.of(new java.math.BigDecimal("1.5"), "x"));
            map.put("jdk", jdk);
            assertEquals(jdk, cluster.member(1).getMap("filter-test").get("jdk"));
        }
    }
}
