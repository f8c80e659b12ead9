package io.partita.query;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SqlService without a cluster: parameters, the engine's failures as answers, and an engine that is not ready. */
class SqlServiceTest {

    @Test
    void shouldRefuseParametersThatAreNotScalars() {
        assertThrows(SqlRefusal.class, () -> SqlService.parameters(List.of(List.of(1)), 4000));
        assertEquals(List.of(5L, "x", true), SqlService.parameters(List.of(5, "x", true), 4000));
    }

    @Test
    void shouldRefuseAStringParameterLongerThanAStatement() {
        assertEquals(List.of("x".repeat(4000)), SqlService.parameters(List.of("x".repeat(4000)), 4000));
        SqlRefusal refusal = assertThrows(SqlRefusal.class,
                () -> SqlService.parameters(List.of("x".repeat(4001)), 4000));
        assertTrue(refusal.getMessage().contains("4000"), refusal.getMessage());
    }
}
