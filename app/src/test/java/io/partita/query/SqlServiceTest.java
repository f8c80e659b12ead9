package io.partita.query;

import com.hazelcast.core.MemberLeftException;
import com.hazelcast.sql.HazelcastSqlException;
import com.hazelcast.sql.impl.SqlErrorCode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.partita.refusal.Refusal;
import io.partita.web.Problem;
import io.partita.web.Refusals;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SqlService without a cluster: parameters, the engine's failures as answers, and an engine that is not ready. */
class SqlServiceTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private final SqlProperties properties = new SqlProperties(1000, TIMEOUT, 4000, 4);

    @Test
    void shouldRefuseParametersThatAreNotScalars() {
        assertThrows(SqlRefusal.class, () -> SqlService.parameters(List.of(List.of(1)), 4000));
        assertEquals(List.of(5L, "x", true), SqlService.parameters(List.of(5, "x", true), 4000));
    }

    @Test
    void shouldRefuseANumberParameterThatIsNotFinite() {
        for (Object number : List.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, Float.NaN,
                Float.POSITIVE_INFINITY)) {
            SqlRefusal refusal = assertThrows(SqlRefusal.class,
                    () -> SqlService.parameters(Arrays.asList("x", number), 4000), String.valueOf(number));
            assertEquals("parameter 2 is not a finite number", refusal.getMessage());
        }
        assertEquals(List.of(new BigDecimal("1.0E308")), SqlService.parameters(List.of(1e308), 4000));
    }

    @Test
    void shouldRefuseAStringParameterLongerThanAStatement() {
        assertEquals(List.of("x".repeat(4000)), SqlService.parameters(List.of("x".repeat(4000)), 4000));
        SqlRefusal refusal = assertThrows(SqlRefusal.class,
                () -> SqlService.parameters(List.of("x".repeat(4001)), 4000));
        assertTrue(refusal.getMessage().contains("4000"), refusal.getMessage());
    }

    @Test
    void shouldAnswer503WithRetryAfterWhileTheEngineCannotCreateTheMappings() {
        SqlMappings notReady = new SqlMappings(null) {
            @Override
            void ensure() {
                throw new HazelcastSqlException("the cluster is still forming", null);
            }
        };
        SqlService service = new SqlService(null, notReady, properties, new SqlPermits(properties),
                new SimpleMeterRegistry());
        for (int attempt = 0; attempt < properties.maxConcurrent() + 1; attempt++) {
            Refusal answer = assertThrows(Refusal.class,
                    () -> service.query("SELECT id FROM accounts", List.of()));
            assertEquals(503, Refusals.status(answer));
            assertEquals(Duration.ofSeconds(1), answer.retryAfter());
            Problem problem = Refusals.problem(answer);
            assertEquals(503, problem.status());
            assertTrue(problem.type().endsWith("/unavailable"), problem.type());
            assertTrue(problem.detail().contains("not ready"), problem.detail());
        }
    }

    @Test
    void shouldStateTheCapWhenAQueryRanOutOfTime() {
        Refusal answer = assertInstanceOf(Refusal.class, SqlService.translate(
                failure(SqlErrorCode.TIMEOUT, null), TIMEOUT, Duration.ofMillis(5001)));
        assertEquals(400, Refusals.status(answer));
        assertTrue(Refusals.problem(answer).type().endsWith("/sql-timeout"));
        assertTrue(Refusals.problem(answer).detail().contains("5000 ms"), Refusals.problem(answer).detail());
    }

    @Test
    void shouldAnswer503WhenAMemberLeftUnderTheQuery() {
        Refusal answer = assertInstanceOf(Refusal.class, SqlService.translate(
                failure(SqlErrorCode.GENERIC, new MemberLeftException("gone")), TIMEOUT, Duration.ofMillis(10)));
        assertEquals(503, Refusals.status(answer));
        assertEquals(Duration.ofSeconds(1), answer.retryAfter());
        Refusal topology = assertInstanceOf(Refusal.class, SqlService.translate(
                failure(SqlErrorCode.TOPOLOGY_CHANGE, null), TIMEOUT, Duration.ofMillis(10)));
        assertEquals(503, Refusals.status(topology));
    }

    /** The error renderer answers anything but an Refusal as a 500 problem and logs its cause. */
    @Test
    void shouldNotBlameTheClientForAFailureInsideTheEngine() {
        RuntimeException answer = SqlService.translate(
                failure(SqlErrorCode.GENERIC, new ArithmeticException("Underflow")), TIMEOUT, Duration.ofMillis(10));
        assertFalse(answer instanceof Refusal, answer.toString());
        assertInstanceOf(HazelcastSqlException.class, answer.getCause());
    }

    @Test
    void shouldAnswerAnInvalidQueryWithTheEnginesReasonButNotItsLineAndColumn() {
        Refusal answer = assertInstanceOf(Refusal.class, SqlService.translate(failure(SqlErrorCode.PARSING,
                null, "From line 1, column 8 to line 1, column 13: Column 'nope' not found in any table"),
                TIMEOUT, Duration.ofMillis(10)));
        assertEquals(400, Refusals.status(answer));
        assertEquals("The engine refused the query: Column 'nope' not found in any table",
                Refusals.problem(answer).detail());
        assertEquals("Encountered \"x\".", SqlService.clientMessage("Encountered \"x\" at line 1, column 71."));
        assertEquals("Illegal use of dynamic parameter",
                SqlService.clientMessage("At line 1, column 8: Illegal use of dynamic parameter"));
    }

    private static HazelcastSqlException failure(int code, Throwable cause) {
        return failure(code, cause, "failed");
    }

    private static HazelcastSqlException failure(int code, Throwable cause, String message) {
        return new HazelcastSqlException(UUID.randomUUID(), code, message, cause, null);
    }
}
