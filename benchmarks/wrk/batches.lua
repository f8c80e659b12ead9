-- wrk: batches of BATCH (default 1000) debits and credits of 1 on accounts w-0 .. w-(ACCOUNTS-1), each item with a new
-- txId, posted to /transactions/batch.
--   wrk -t2 -c4 -d60s -s benchmarks/wrk/batches.lua http://127.0.0.1:8080
-- The accounts must exist (benchmarks/wrk/memory.sh opens them). ACCOUNTS (default 10000) and BATCH in the environment.
local accounts = tonumber(os.getenv("ACCOUNTS") or "10000")
local batch = tonumber(os.getenv("BATCH") or "1000")
local counter = 0
local thread_id = 0

function setup(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
end

function init(args)
    math.randomseed(id * 7919 + os.time())
    prefix = "b" .. id .. "-" .. os.time() .. "-"
end

function request()
    local items = {}
    for i = 1, batch do
        counter = counter + 1
        local account = "w-" .. math.random(0, accounts - 1)
        local kind = (counter % 2 == 0) and "DEBIT" or "CREDIT"
        items[i] = '{"txId":"' .. prefix .. counter .. '","accountId":"' .. account .. '","type":"' .. kind
            .. '","amount":1}'
    end
    return wrk.format("POST", "/transactions/batch", {["Content-Type"] = "application/json"},
        "[" .. table.concat(items, ",") .. "]")
end
