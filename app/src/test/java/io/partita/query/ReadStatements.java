package io.partita.query;

import java.util.List;

/**
 * Reads {@code POST /sql} must accept, with their parameters. Shared by the guard's unit test, which checks that each
 * passes, and the endpoint's test, which checks that each, rebuilt by the guard, answers what the engine answers to
 * the statement as written.
 */
final class ReadStatements {

    record Read(String sql, List<Object> params) {
    }

    static final List<Read> ALL = List.of(
            new Read("SELECT id, balance FROM accounts WHERE balance < ? ORDER BY balance LIMIT 10", List.of(1000)),
            new Read("select * from accounts", List.of()),
            new Read("SELECT * FROM journal", List.of()),
            new Read("SELECT COUNT(*), SUM(balance), MIN(balance), MAX(balance) FROM accounts", List.of()),
            new Read("SELECT j.accountId, j.amount FROM journal j WHERE j.type = 'DEBIT' ORDER BY j.amount", List.of()),
            new Read("SELECT status, type, COUNT(*), SUM(amount) FROM journal GROUP BY status, type", List.of()),
            new Read("SELECT * FROM journal ORDER BY txId DESC", List.of()),
            new Read("SELECT \"id\", \"balance\" FROM \"accounts\" WHERE \"id\" LIKE 'a-%'", List.of()),
            new Read("SELECT type, COUNT(*) AS n FROM journal GROUP BY type HAVING COUNT(*) > 1 ORDER BY n DESC",
                    List.of()),
            new Read("SELECT CAST(balance AS DECIMAL(20, 2)) / 100 AS euros FROM accounts", List.of()),
            new Read("SELECT id FROM accounts WHERE id = 'it''s -- not a comment; nor /* this */'", List.of()),
            new Read("SELECT UPPER(id), ABS(balance), COALESCE(NULL, 1) FROM accounts;", List.of()),
            new Read("SELECT EXTRACT(YEAR FROM TO_TIMESTAMP_TZ(recordedAt / 1000)) FROM journal", List.of()),
            new Read("SELECT CASE WHEN balance < 0 THEN 'overdrawn' ELSE 'ok' END FROM accounts", List.of()),
            new Read("SELECT \"type\" FROM journal WHERE \"status\" = 'REJECTED'", List.of()),
            new Read("SELECT id FROM accounts ORDER BY balance DESC OFFSET 5 ROWS FETCH NEXT 10 ROWS ONLY", List.of()),
            new Read("SELECT id FROM (SELECT id, balance FROM accounts) t WHERE t.balance > 0", List.of()),
            new Read("SELECT id, ROUND(balance / 3.0, 2), TRUNCATE(balance, -2) FROM accounts "
                    + "WHERE id LIKE '%-0%' ESCAPE '\\'", List.of()),
            new Read("SELECT id FROM accounts WHERE id LIKE ? AND id NOT LIKE '%9'", List.of("a-1%")),
            new Read("SELECT id\tFROM accounts\r\nWHERE balance > ?", List.of(1_500)),
            new Read("SELECT 'back\\slash', 'été \u00A0', '\"', accountId FROM journal WHERE accountId = 'a-01'",
                    List.of()),
            new Read("SELECT id FROM accounts WHERE id = 'a-01' UNION ALL "
                    + "SELECT accountId FROM journal WHERE accountId = 'a-02'", List.of()),
            new Read("SELECT - balance, balance * -1, 1.5e2, .5 FROM accounts WHERE id = 'a-03'", List.of()));

    static final List<String> SQL = ALL.stream().map(Read::sql).toList();

    private ReadStatements() {
    }
}
