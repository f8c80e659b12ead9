-- The correctness check on Redis: KEYS[1] = the journal hash, ARGV[1] = the account key prefix.
-- Returns {journal rows, accounts whose balance is not opening + applied amounts, rejected rows, the signed sum of
-- applied amounts, the sum of balances, the sum of opening balances, accounts}. Reads the whole journal, so it is
-- for the end of a run (it blocks Redis while it runs).
local applied = {}
local rows = 0
local rejected = 0
local applied_sum = 0
local cursor = '0'
repeat
    local page = redis.call('HSCAN', KEYS[1], cursor, 'COUNT', 1000)
    cursor = page[1]
    local items = page[2]
    for i = 2, #items, 2 do
        rows = rows + 1
        local account, amount, outcome = string.match(items[i], '^([^|]*)|([^|]*)|([^|]*)|')
        if outcome == 'APPLIED' then
            applied[account] = (applied[account] or 0) + tonumber(amount)
            applied_sum = applied_sum + tonumber(amount)
        elseif outcome == 'REJECTED' then
            rejected = rejected + 1
        end
    end
until cursor == '0'
local mismatches = 0
local balances = 0
local openings = 0
local keys = redis.call('KEYS', ARGV[1] .. '*')
for _, key in ipairs(keys) do
    local a = redis.call('HMGET', key, 'balance', 'opening')
    local id = string.sub(key, #ARGV[1] + 1)
    balances = balances + tonumber(a[1])
    openings = openings + tonumber(a[2])
    if tonumber(a[1]) ~= tonumber(a[2]) + (applied[id] or 0) then
        mismatches = mismatches + 1
    end
end
return {rows, mismatches, rejected, applied_sum, balances, openings, #keys}
