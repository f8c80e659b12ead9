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
            "SELECT * FROM accounts WHERE id = U&'\\0041'");

    private HostileStatements() {
    }
}
