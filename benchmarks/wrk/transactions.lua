-- wrk: single debits and credits of 1 on accounts w-0 .. w-(ACCOUNTS-1), each with a new txId.
--   wrk -t2 -c16 -d30s -s benchmarks/wrk/transactions.lua http://127.0.0.1:8080
-- The accounts must exist (benchmarks/wrk/durability.sh opens them). ACCOUNTS (default 10000) in the environment.
local accounts = tonumber(os.getenv("ACCOUNTS") or "10000")
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
    table.insert(threads, thread)
end

function init(args)
    math.randomseed(id * 7919 + os.time())
    prefix = "w" .. id .. "-" .. os.time() .. "-"
end

function request()
    counter = counter + 1
    local account = "w-" .. math.random(0, accounts - 1)
    local kind = (counter % 2 == 0) and "DEBIT" or "CREDIT"
    local body = '{"txId":"' .. prefix .. counter .. '","type":"' .. kind .. '","amount":1}'
    return wrk.format("POST", "/accounts/" .. account .. "/transactions",
        {["Content-Type"] = "application/json"}, body)
end

function response(status, headers, body)
    if status ~= 200 and status ~= 422 then
        errors = (errors or 0) + 1
    end
end
