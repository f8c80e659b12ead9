-- The ledger on PostgreSQL, as benchmarks/peers.sh loads it: one stored function per transaction.
--
-- Why a function and not one statement with ON CONFLICT: a transaction must (1) claim its id, (2) apply the
-- amount only if the overdraft limit allows, (3) record applied or rejected, and (4) replay the first answer for a
-- repeated id. One INSERT ... ON CONFLICT can do (1) and (4) but not a conditional UPDATE of another table whose
-- outcome decides the journal row; a writable CTE can, but a repeated id arriving concurrently would then read the
-- journal before the first one commits. The function claims the id first: a concurrent repeat waits on the unique
-- index entry until the first commits, then sees the conflict and replays its answer, so nothing is applied twice.
-- One round trip per transaction, as with the Lua script on Redis and the entry processor on Partita.
SET client_min_messages = warning;
DROP VIEW IF EXISTS ledger_mismatches;
DROP FUNCTION IF EXISTS ledger_post(text, bigint, bigint);
DROP TABLE IF EXISTS journal;
DROP TABLE IF EXISTS accounts;

CREATE TABLE accounts (
    id        bigint PRIMARY KEY,
    opening   bigint NOT NULL,
    overdraft bigint NOT NULL,
    balance   bigint NOT NULL
);

CREATE TABLE journal (
    tx_id         text PRIMARY KEY,
    account_id    bigint NOT NULL,
    amount        bigint NOT NULL,
    outcome       text,
    balance_after bigint
);

-- Returns the outcome (APPLIED, REJECTED or UNKNOWN_ACCOUNT) and the balance after it; a repeated tx id returns
-- the first answer and changes nothing.
CREATE FUNCTION ledger_post(p_tx text, p_account bigint, p_amount bigint, OUT outcome text, OUT balance bigint)
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO journal (tx_id, account_id, amount) VALUES (p_tx, p_account, p_amount)
        ON CONFLICT (tx_id) DO NOTHING;
    IF NOT FOUND THEN
        SELECT j.outcome, j.balance_after INTO outcome, balance FROM journal j WHERE j.tx_id = p_tx;
        RETURN;
    END IF;
    UPDATE accounts a SET balance = a.balance + p_amount
        WHERE a.id = p_account AND a.balance + p_amount >= -a.overdraft
        RETURNING a.balance INTO balance;
    IF FOUND THEN
        outcome := 'APPLIED';
    ELSE
        SELECT a.balance INTO balance FROM accounts a WHERE a.id = p_account;
        outcome := CASE WHEN FOUND THEN 'REJECTED' ELSE 'UNKNOWN_ACCOUNT' END;
    END IF;
    UPDATE journal SET outcome = ledger_post.outcome, balance_after = ledger_post.balance WHERE tx_id = p_tx;
END $$;

-- The correctness check: rows are accounts whose balance is not opening + applied amounts (none when correct).
CREATE VIEW ledger_mismatches AS
    SELECT a.id, a.balance, a.opening + coalesce(j.applied, 0) AS expected
    FROM accounts a
    LEFT JOIN (SELECT account_id, sum(amount) AS applied FROM journal WHERE outcome = 'APPLIED' GROUP BY account_id) j
        ON j.account_id = a.id
    WHERE a.balance <> a.opening + coalesce(j.applied, 0);
