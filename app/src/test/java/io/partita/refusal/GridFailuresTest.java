package io.partita.refusal;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.IndeterminateOperationStateException;
import com.hazelcast.cp.exception.CPGroupDestroyedException;
import com.hazelcast.cp.exception.CannotReplicateException;
import com.hazelcast.cp.exception.NotLeaderException;
import com.hazelcast.cp.internal.datastructures.exception.WaitKeyCancelledException;
import com.hazelcast.cp.internal.session.SessionExpiredException;
import com.hazelcast.cp.lock.exception.LockOwnershipLostException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import com.hazelcast.spi.properties.ClusterProperty;
import io.partita.node.HazelcastConfigs;
import io.partita.support.AllFeatures;
import io.partita.support.TestProperties;
import io.partita.web.Refusals;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A write whose backup did not confirm, or a member on its way out, is a retryable 503, never a success. */
class GridFailuresTest {

    @Test
    void shouldMakeAnUnconfirmedBackupARetryable503() {
        RuntimeException answer = GridFailures.translate(new CompletionException(
                new IndeterminateOperationStateException("no backup ack")));

        Refusal api = (Refusal) answer;
        assertEquals(503, Refusals.status(api));
        assertEquals(1, api.retryAfter().toSeconds());
        assertTrue(Refusals.problem(api).detail().contains("Retry"));
    }

    @Test
    void shouldMakeLeavingAndMigratingMembersRetryable503s() {
        for (Throwable failure : List.of(new HazelcastInstanceNotActiveException(),
                new TargetNotMemberException("gone"),
                new ExecutionException(new HazelcastInstanceNotActiveException()))) {
            assertEquals(503, Refusals.status((Refusal) GridFailures.translate(failure)), failure.toString());
        }
    }

    @Test
    void shouldMakeEveryFailureOfTheCpSubsystemARetryable503ThatNamesNoClass() {
        for (Throwable failure : List.of(new WaitKeyCancelledException("wait cancelled"),
                new CPGroupDestroyedException(),
                new NotLeaderException(null, null, null),
                new CannotReplicateException(null),
                new LockOwnershipLostException("lost"),
                new SessionExpiredException("expired"),
                new CompletionException(new ExecutionException(new SessionExpiredException("expired"))))) {
            RuntimeException answer = GridFailures.translate(failure);

            Refusal api = (Refusal) answer;
            assertEquals(503, Refusals.status(api), failure.toString());
            assertEquals(1, api.retryAfter().toSeconds(), failure.toString());
            String body = Refusals.problem(api).toString();
            assertTrue(Refusals.problem(api).detail().contains("Retry with the same id"), body);
            assertFalse(body.contains("Exception") || body.contains("com.hazelcast"), body);
        }
    }

    @Test
    void shouldPassRefusalsThroughAndLeaveBugsAlone() {
        Refusal notFound = Refusal.notFound("Account", "a");
        assertSame(notFound, GridFailures.translate(new CompletionException(notFound)));
        IllegalStateException bug = new IllegalStateException("bug");
        assertSame(bug, GridFailures.translate(new CompletionException(bug)));
    }

    @Test
    void shouldConfigureMembersToFailOnIndeterminateOperationState() {
        var config = HazelcastConfigs.memberConfig(TestProperties.tcp("c", 5701, List.of(), 0), "http://x",
                AllFeatures.LIST);

        assertEquals("true", config.getProperty(ClusterProperty.FAIL_ON_INDETERMINATE_OPERATION_STATE.getName()));
        assertEquals(1, config.getMapConfig("accounts").getBackupCount());
        assertEquals(0, config.getMapConfig("accounts").getAsyncBackupCount());
        assertEquals(1, config.getMapConfig("journal").getBackupCount());
        assertEquals("271", config.getProperty(ClusterProperty.PARTITION_COUNT.getName()));
    }
}
