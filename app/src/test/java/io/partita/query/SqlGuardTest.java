package io.partita.query;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The guard as a plain function: what passes, what is refused, and that a refusal says why. */
class SqlGuardTest {

    private final SqlGuard guard = new SqlGuard(Set.of("accounts", "journal"), 4000);

    static final List<String> HOSTILE = HostileStatements.ALL;

    @ParameterizedTest
    @FieldSource("HOSTILE")
    void shouldRefuseEveryHostileStatement(String sql) {
        SqlRefusal refusal = assertThrows(SqlRefusal.class, () -> guard.check(sql), sql);
        assertTrue(!refusal.getMessage().isBlank());
    }

    @Test
    void shouldListAtLeastTwentyFiveHostileStatements() {
        assertTrue(HOSTILE.size() >= 25, "only " + HOSTILE.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT id, balance FROM accounts WHERE balance < ? ORDER BY balance LIMIT 10",
        "select * from accounts",
        "SELECT COUNT(*), SUM(balance), MIN(balance), MAX(balance), AVG(balance) FROM accounts",
        "SELECT a.id, j.amount FROM accounts a JOIN journal j ON j.accountId = a.id WHERE j.type = 'DEBIT'",
        "SELECT a.id FROM accounts a, journal j WHERE a.id = j.accountId",
        "SELECT id FROM accounts WHERE id IN (SELECT accountId FROM journal WHERE amount > 100)",
        "SELECT \"id\", \"balance\" FROM \"accounts\" WHERE \"id\" LIKE 'a-%'",
        "SELECT type, COUNT(*) AS n FROM journal GROUP BY type HAVING COUNT(*) > 1 ORDER BY n DESC",
        "SELECT CAST(balance AS DECIMAL(20, 2)) / 100 AS euros FROM accounts",
        "SELECT id FROM accounts WHERE id = 'it''s -- not a comment; nor /* this */'",
        "SELECT UPPER(id), ABS(balance), COALESCE(NULL, 1) FROM accounts;",
        "SELECT EXTRACT(YEAR FROM TO_TIMESTAMP_TZ(recordedAt / 1000)) FROM journal",
        "SELECT CASE WHEN balance < 0 THEN 'overdrawn' ELSE 'ok' END FROM accounts",
        "SELECT \"type\" FROM journal WHERE \"status\" = 'REJECTED'",
        "SELECT id FROM accounts ORDER BY balance DESC OFFSET 5 ROWS FETCH NEXT 10 ROWS ONLY",
        "SELECT id FROM (SELECT id, balance FROM accounts) t WHERE t.balance > 0",
        "SELECT a.id FROM accounts a JOIN journal j ON a.id = j.accountId WHERE j.ref IS NOT DISTINCT FROM NULL"})
    void shouldAcceptReadsOfThePublishedTables(String sql) {
        guard.check(sql);
    }

    @Test
    void shouldDropOneTrailingSemicolonOnly() {
        assertEquals("SELECT id FROM accounts", guard.check("SELECT id FROM accounts;"));
        assertThrows(SqlRefusal.class, () -> guard.check("SELECT id FROM accounts;;"));
    }

    @Test
    void shouldRefuseAStatementLongerThanTheCap() {
        String tooLong = "SELECT id FROM accounts WHERE id = '" + "x".repeat(4000) + "'";
        SqlRefusal refusal = assertThrows(SqlRefusal.class, () -> guard.check(tooLong));
        assertTrue(refusal.getMessage().contains("4000"));
    }

    @Test
    void shouldNameTheUnknownTableAndTheFunctionItRefuses() {
        assertTrue(assertThrows(SqlRefusal.class, () -> guard.check("SELECT * FROM secrets"))
                .getMessage().contains("secrets"));
        assertTrue(assertThrows(SqlRefusal.class, () -> guard.check("SELECT * FROM csv_file('/', 'x')"))
                .getMessage().contains("csv_file"));
        assertTrue(assertThrows(SqlRefusal.class, () -> guard.check("SELECT shell('ls') FROM accounts"))
                .getMessage().contains("shell"));
    }

    @Test
    void shouldRefuseParametersThatAreNotScalars() {
        assertThrows(SqlRefusal.class, () -> SqlService.parameters(List.of(List.of(1))));
        assertEquals(List.of(5L, "x", true), SqlService.parameters(List.of(5, "x", true)));
    }
}
