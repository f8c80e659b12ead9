-- The ledger on Redis: one script per transaction, run with EVALSHA, the journal written in the same script.
-- KEYS[1] = the account hash (balance, opening, overdraft), KEYS[2] = the journal hash (tx id -> record).
-- ARGV[1] = tx id, ARGV[2] = account id, ARGV[3] = amount.
-- Returns "account|amount|outcome|balance"; a repeated tx id returns its first record and changes nothing.
-- Redis runs a script alone, so the check, the write and the journal row are one atomic step.
local prior = redis.call('HGET', KEYS[2], ARGV[1])
if prior then
    return prior
end
local amount = tonumber(ARGV[3])
local account = redis.call('HMGET', KEYS[1], 'balance', 'overdraft')
local outcome
local balance
if not account[1] then
    outcome = 'UNKNOWN_ACCOUNT'
    balance = ''
elseif tonumber(account[1]) + amount >= -tonumber(account[2]) then
    outcome = 'APPLIED'
    balance = redis.call('HINCRBY', KEYS[1], 'balance', amount)
else
    outcome = 'REJECTED'
    balance = account[1]
end
local record = ARGV[2] .. '|' .. ARGV[3] .. '|' .. outcome .. '|' .. balance
redis.call('HSET', KEYS[2], ARGV[1], record)
return record
