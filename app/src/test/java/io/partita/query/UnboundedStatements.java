package io.partita.query;

import java.util.List;

/**
 * The worst statements for a node's memory that one could write over the two tables: each would hold more than one
 * table's rows (a join's build side or product, every distinct value of a column, both sides of a set operation).
 * The guard refuses each before the engine sees it ({@link SqlGuard.Bound}).
 */
final class UnboundedStatements {

    static final List<String> ALL = List.of(
            "SELECT a.id, b.id FROM accounts a JOIN accounts b ON a.balance <> b.balance",
            "SELECT COUNT(*) FROM accounts a, accounts b, accounts c WHERE a.balance + b.balance > c.balance",
            "SELECT * FROM journal a CROSS JOIN journal b ORDER BY a.amount",
            "SELECT * FROM journal a, journal b",
            "SELECT * FROM accounts a LEFT JOIN journal j ON j.accountId = a.id ORDER BY j.amount",
            "SELECT * FROM accounts NATURAL JOIN journal",
            "SELECT * FROM accounts a INNER JOIN journal j USING (id)",
            "SELECT id FROM accounts WHERE id IN (SELECT accountId FROM journal)",
            "SELECT id FROM accounts a WHERE EXISTS (SELECT 1 FROM journal j WHERE j.accountId = a.id)",
            "SELECT id, (SELECT MAX(amount) FROM journal) FROM accounts",
            "SELECT id FROM accounts WHERE balance > ALL (SELECT amount FROM journal)",
            "SELECT id FROM (SELECT a.id FROM accounts a JOIN journal j ON a.id = j.accountId) t",
            "SELECT txId FROM journal UNION SELECT id FROM accounts",
            "SELECT txId FROM journal INTERSECT SELECT id FROM accounts",
            "SELECT txId FROM journal EXCEPT SELECT id FROM accounts",
            "SELECT DISTINCT txId FROM journal",
            "SELECT COUNT(DISTINCT txId) FROM journal",
            "SELECT txId, COUNT(*) FROM journal GROUP BY txId",
            "SELECT accountId, SUM(amount) FROM journal GROUP BY accountId ORDER BY 2 DESC",
            "SELECT type, txId, COUNT(*) FROM journal GROUP BY type, txId",
            "SELECT balance % 7, COUNT(*) FROM accounts GROUP BY balance % 7",
            "SELECT COUNT(*) FROM journal GROUP BY recordedAt / 1000");

    private UnboundedStatements() {
    }
}
