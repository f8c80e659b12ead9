package io.partita.node;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.partita.support.TestCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Internals#operationsReceived}: what the peers tool divides by the transactions to count member-to-member
 * operations per transaction. Reads one member sends for keys the other owns each reach the owner as an operation.
 */
class OperationsReceivedTest {

    @Test
    void shouldCountTheOperationsAnotherMemberSentThisOne() {
        try (TestCluster cluster = TestCluster.start(2)) {
            HazelcastInstance caller = cluster.member(0);
            HazelcastInstance owner = cluster.member(1);
            IMap<String, Long> map = caller.getMap("operations-received");
            List<String> ownedByOther = new ArrayList<>();
            for (int i = 0; ownedByOther.size() < 200; i++) {
                String key = "k-" + i;
                if (owner.getPartitionService().getPartition(key).getOwner().localMember()) {
                    ownedByOther.add(key);
                }
            }
            long ownerBefore = Internals.operationsReceived(owner);

            ownedByOther.forEach(map::get);

            // A thread counts an operation once it has run it, which may be just after its answer left.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                long received = Internals.operationsReceived(owner) - ownerBefore;
                assertTrue(received >= 200, "the owner ran each of the 200 reads sent to it: " + received);
            });
        }
    }
}
