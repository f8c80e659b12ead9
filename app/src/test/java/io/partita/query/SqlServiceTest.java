package io.partita.query;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
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
}
