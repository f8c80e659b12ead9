package io.partita.query;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The guard as a plain function: what passes, what is refused, that a refusal says why, and what the engine gets. */
class SqlGuardTest {

    private final SqlGuard guard = new SqlGuard(Set.of("accounts", "journal"), 4000);

    static final List<String> HOSTILE = HostileStatements.ALL;
    static final List<String> READS = ReadStatements.SQL;

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

    static final List<String> UNBOUNDED = UnboundedStatements.ALL;

    @ParameterizedTest
    @FieldSource("UNBOUNDED")
    void shouldRefuseEveryStatementThatCouldHoldMoreThanOneTablesRows(String sql) {
        SqlRefusal refusal = assertThrows(SqlRefusal.class, () -> guard.check(sql), sql);
        assertTrue(refusal.getMessage().endsWith(SqlGuard.Bound.WHY), sql + " -> " + refusal.getMessage());
    }

    @ParameterizedTest
    @FieldSource("READS")
    void shouldAcceptReadsOfThePublishedTables(String sql) {
        guard.check(sql);
    }

    @Test
    void shouldAcceptAComparisonWithIsNotDistinctFromWhoseFromNamesNoTable() {
        guard.check("SELECT j.accountId FROM journal j WHERE j.ref IS NOT DISTINCT FROM NULL "
                + "OR j.ref IS DISTINCT FROM 'x'");
    }

    @Test
    void shouldHandTheEngineTheStatementRebuiltFromTheTokensItChecked() {
        assertEquals("SELECT a . id , \"we\"\"ird\" , 'it''s' , 'back\\slash' FROM accounts a WHERE a . balance >= ?",
                guard.check("SELECT a.id,\t\"we\"\"ird\",'it''s', 'back\\slash'\r\nFROM accounts a "
                        + "WHERE a.balance>=?").sql());
    }

    @Test
    void shouldDropOneTrailingSemicolonOnly() {
        assertEquals("SELECT id FROM accounts", guard.check("SELECT id FROM accounts;").sql());
        assertThrows(SqlRefusal.class, () -> guard.check("SELECT id FROM accounts;;"));
    }

    /** E'\'' is a whole string to the engine and an open one to a reader that knows only '': see SqlTokenizer. */
    @ParameterizedTest
    @ValueSource(strings = {"E'\\''", "e'x'", "X'00'", "x'00'", "N'x'", "n'x'", "_utf8'x'", "_UTF8'x'", "B'01'",
        "id'x'", "a1'x'"})
    void shouldRefuseAStringLiteralWithAPrefix(String literal) {
        SqlRefusal refusal = assertThrows(SqlRefusal.class,
                () -> guard.check("SELECT " + literal + " FROM accounts"));
        assertTrue(refusal.getMessage().contains("prefix"), refusal.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"this", "THIS", "\"this\"", "__key", "__KEY", "\"__key\"", "\"__Key\"", "a.this",
        "a.\"__key\""})
    void shouldRefuseTheHiddenKeyAndValueInAnyCaseOrQuoting(String name) {
        SqlRefusal refusal = assertThrows(SqlRefusal.class,
                () -> guard.check("SELECT " + name + " FROM accounts a"));
        assertTrue(refusal.getMessage().contains("not published"), refusal.getMessage());
    }

    @Test
    void shouldAcceptALikePatternWithOneWildcardBeforeItsEndAndAnyAtIt() {
        for (String pattern : List.of("a-%", "%-01", "%-0%", "a%1", "a%1%%", "a_b%", "%", "")) {
            guard.check("SELECT id FROM accounts WHERE id LIKE '" + pattern + "'");
        }
    }

    @Test
    void shouldRefuseALikePatternThatWouldBacktrackWithoutBound() {
        for (String pattern : List.of("%a%b", "a%b%c", "%%a", "%a%a%a%a%a%a%a%a%a%a%b")) {
            SqlRefusal refusal = assertThrows(SqlRefusal.class,
                    () -> guard.check("SELECT id FROM accounts WHERE id LIKE '" + pattern + "'"), pattern);
            assertTrue(refusal.getMessage().contains("more than one %"), refusal.getMessage());
        }
        SqlGuard.Accepted accepted = guard.check("SELECT id FROM accounts WHERE id = ? AND id LIKE ? ESCAPE ?");
        assertEquals(Set.of(1), accepted.patternParameters());
        accepted.checkParameters(Arrays.asList("%a%b", "a-%", "\\"));
        accepted.checkParameters(Arrays.asList("x", null, "\\"));
        SqlRefusal refusal = assertThrows(SqlRefusal.class,
                () -> accepted.checkParameters(List.of("x", "%a%b", "\\")));
        assertTrue(refusal.getMessage().contains("parameter 2"), refusal.getMessage());
    }

    @Test
    void shouldRefuseAScaleThatIsNotASmallLiteral() {
        guard.check("SELECT ROUND(balance, 2), ROUND(balance, -38), TRUNCATE(balance, +38), ROUND(balance) "
                + "FROM accounts");
        for (String scale : List.of("39", "-39", "20000000", "?", "balance", "2 + 1", "(2)")) {
            SqlRefusal refusal = assertThrows(SqlRefusal.class,
                    () -> guard.check("SELECT ROUND(balance, " + scale + ") FROM accounts"), scale);
            assertTrue(refusal.getMessage().contains("scale"), refusal.getMessage());
        }
    }

    @Test
    void shouldRefuseMoreOperatorsThanTheValidatorCanNest() {
        guard.check("SELECT " + "1 + ".repeat(SqlGuard.MAX_OPERATORS) + "1 FROM accounts");
        SqlRefusal refusal = assertThrows(SqlRefusal.class,
                () -> guard.check("SELECT " + "NOT ".repeat(SqlGuard.MAX_OPERATORS + 1) + "TRUE FROM accounts"));
        assertTrue(refusal.getMessage().contains("operators"), refusal.getMessage());
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
        assertTrue(assertThrows(SqlRefusal.class, () -> guard.check("SELECT REPLACE(id, 'a', 'b') FROM accounts"))
                .getMessage().contains("REPLACE"));
    }
}
