package io.partita.query;

import java.util.List;

/**
 * Statements {@code POST /sql} must refuse before the engine sees them, each with what it tries. Shared by the guard's
 * unit test and the endpoint's test, which also checks that none of them changed anything.
 */
final class HostileStatements {

    static final String FILE_DIRECTORY = "/tmp/partita-sql-must-not-exist";

    static final List<String> ALL = List.of(
            // other statements
            "DELETE FROM accounts",
            "UPDATE accounts SET balance = 1000000 WHERE id = 'a-1'",
            "INSERT INTO accounts (__key, id, balance) VALUES ('x', 'x', 1)",
            "SINK INTO accounts SELECT * FROM accounts",
            "DROP MAPPING accounts",
            "DROP MAPPING IF EXISTS journal",
            "ALTER MAPPING accounts",
            "CREATE MAPPING files (name VARCHAR) TYPE File OPTIONS ('path' = '/etc', 'format' = 'csv', 'glob' = '*')",
            "CREATE OR REPLACE MAPPING accounts TYPE File OPTIONS ('path' = '" + FILE_DIRECTORY
                    + "', 'format' = 'json')",
            "CREATE JOB steal AS SINK INTO journal SELECT * FROM accounts",
            "CREATE VIEW rich AS SELECT * FROM accounts",
            "CREATE INDEX idx ON accounts (balance)",
            "CREATE SNAPSHOT s FOR JOB j",
            "EXPLAIN SELECT * FROM accounts",
            "SHOW MAPPINGS",
            "SHOW JOBS",
            "TRUNCATE TABLE accounts",
            // table functions that read files or generate rows
            "SELECT * FROM TABLE(csv_file('/etc', 'passwd'))",
            "SELECT * FROM TABLE(json_flat_file(path => '/etc', glob => '*.json'))",
            "SELECT * FROM TABLE(avro_file('/etc', '*'))",
            "SELECT * FROM TABLE(parquet_file('/etc', '*'))",
            "SELECT * FROM csv_file('/etc', 'passwd')",
            "SELECT * FROM \"csv_file\"('/etc', 'passwd')",
            "SELECT * FROM TABLE(generate_series(1, 1000000000))",
            "SELECT * FROM TABLE(generate_stream(1000))",
            "SELECT * FROM generate_series(1, 10)",
            "SELECT id FROM accounts, TABLE(csv_file('/etc', 'passwd'))",
            "SELECT id FROM accounts WHERE id IN (SELECT * FROM csv_file('/etc', 'hosts'))",
            // other tables, schemas and qualified names
            "SELECT * FROM information_schema.mappings",
            "SELECT * FROM information_schema.columns",
            "SELECT * FROM public.accounts",
            "SELECT * FROM hazelcast.public.accounts",
            "SELECT * FROM secrets",
            "SELECT * FROM ACCOUNTS",
            "SELECT * FROM accounts a JOIN secrets s ON a.id = s.id",
            "SELECT * FROM accounts, secrets",
            "SELECT * FROM (VALUES (1), (2))",
            "SELECT id FROM accounts WHERE balance IS DISTINCT FROM (SELECT 1 FROM secrets)",
            "SELECT id FROM accounts CROSS APPLY csv_file('/etc', 'passwd')",
            // several statements, comments, quoting and case tricks
            "SELECT * FROM accounts; DROP MAPPING accounts",
            "SELECT * FROM accounts;DELETE FROM accounts;",
            "SELECT * FROM accounts -- harmless?",
            "SELECT * FROM accounts /* DROP MAPPING accounts */",
            "SELECT /*+ hint */ * FROM accounts",
            "SELECT * FROM accounts // trailing",
            "sElEcT * FrOm accounts; dRoP mApPiNg accounts",
            "DeLeTe FROM accounts",
            "SELECT * FROM `accounts`",
            "SELECT * FROM [accounts]",
            "SELECT {fn user()} FROM accounts",
            "\uFF33ELECT * FROM accounts",
            "SELECT * FROM accounts WHERE id = 'x'; UPDATE accounts SET balance = 0",
            "SELECT * FROM accounts WHERE id = 'unterminated",
            "SELECT * FROM \"accounts",
            "WITH x AS (SELECT * FROM accounts) SELECT * FROM x",
            "(SELECT * FROM accounts)",
            "SELECT * FROM accounts WHERE id = :id",
            "SELECT * FROM accounts WHERE id = $1",
            "SELECT * FROM accounts\u0000",
            "SELECT 1e FROM accounts",
            "SELECT * FROM accounts WHERE id = U&'\\0041'",
            // string literals the parser reads by rules of their own: in E'...' a backslash escapes the quote, so the
            // engine and a tokenizer that knows only '' disagree on where the string ends
            "SELECT E'\\'' AS q, m.* FROM information_schema.mappings AS m WHERE E''x' IS NOT NULL",
            "SELECT E'\\'' AS q, f.* FROM TABLE(json_flat_file(path => '/opt', glob => '*.json')) AS f "
                    + "WHERE E''x' IS NOT NULL",
            "SELECT E'\\'' AS q, m.table_name FROM information_schema.mappings AS m --'",
            "SELECT E'\\'' AS q, m.* FROM information_schema.mappings AS m --'\nWHERE 1 = 1",
            "SELECT e'\\'' AS q, f.* FROM TABLE(json_flat_file(path => e'/opt', glob => e'*.json')) AS f --'",
            "SELECT e'\\\\' AS q FROM accounts",
            "SELECT id FROM accounts WHERE id = E'a\\'b'",
            "SELECT id FROM accounts WHERE id=e'x'",
            "SELECT X'00' FROM accounts",
            "SELECT x'4142' FROM accounts",
            "SELECT N'x' FROM accounts",
            "SELECT _utf8'x' FROM accounts",
            "SELECT id FROM accounts WHERE id = _UTF8'a-01'",
            "SELECT B'0101' FROM accounts",
            "SELECT U&\"accounts\" FROM accounts",
            // the hidden key and value, whose fields no mapping publishes
            "SELECT this FROM accounts",
            "SELECT __key FROM journal",
            "SELECT \"this\" FROM accounts",
            "SELECT THIS FROM accounts",
            "SELECT a.\"__KEY\" FROM accounts a",
            "SELECT id FROM accounts ORDER BY this",
            "SELECT CAST(this AS VARCHAR) FROM accounts",
            // a row that costs without bound, where the timeout does not reach
            "SELECT REPLACE(REPLACE(id, 'a', 'aaaaaaaaaa'), 'a', 'aaaaaaaaaa') FROM accounts",
            "SELECT ROUND(1.5, 20000000) FROM accounts",
            "SELECT TRUNCATE(balance, -2147483648) FROM accounts",
            "SELECT TRUNCATE(balance, ?) FROM accounts",
            "SELECT id FROM accounts WHERE id LIKE '%a%a%a%a%a%a%a%a%a%a%a%a%a%a%b'",
            "SELECT id FROM accounts WHERE id LIKE '%a' || '%a%a%b'",
            "SELECT id FROM accounts WHERE id LIKE id",
            "SELECT id FROM accounts WHERE id LIKE ANY ('%a%b', 'x')",
            "SELECT id FROM accounts WHERE id SIMILAR TO '(a+)+b'",
            "SELECT " + "NOT ".repeat(200) + "TRUE FROM accounts",
            "SELECT " + "1 + ".repeat(150) + "1 FROM accounts",
            "SELECT " + "(".repeat(40) + "1" + ")".repeat(40) + " FROM accounts",
            // functions, qualified names, other objects, odd whitespace and characters
            "SELECT JSON_QUERY(id, '$') FROM accounts",
            "SELECT TO_CHAR(balance, '999') FROM accounts",
            "SELECT accounts.COUNT(*) FROM accounts",
            "SELECT * FROM partitioned.accounts",
            "SELECT * FROM \"information_schema\".\"mappings\"",
            "SELECT * FROM \"information_schema.mappings\"",
            "SELECT * FROM accounts UNION SELECT table_name, 1, 2, 3, 4 FROM information_schema.mappings",
            "SELECT id FROM accounts WHERE EXISTS (SELECT 1 FROM information_schema.columns)",
            "SELECT * FROM accounts a JOIN LATERAL (SELECT 1) x ON TRUE",
            "SELECT * FROM UNNEST(ARRAY[1, 2])",
            "SELECT * FROM accounts /* a /* nested */ comment */",
            "SELECT id FROM accounts\fWHERE 1 = 1",
            "SELECT id\u00A0FROM accounts",
            "SELECT id FROM acc\u200Bounts",
            "SELECT id FROM \"acc\u200Bounts\"",
            "SELECT id FROM accounts WHERE id = '' --'");

    private HostileStatements() {
    }
}
