-- wrk: transfers of 1 between two different random accounts of w-0 .. w-(ACCOUNTS-1), each with a new txId.
--   SCRIPT=transfers.lua bash benchmarks/wrk/durability.sh
--   wrk -t2 -c16 -d30s -s benchmarks/wrk/transfers.lua http://127.0.0.1:8080
-- The accounts must exist (benchmarks/wrk/durability.sh opens them). ACCOUNTS (default 10000) in the environment.
local accounts = tonumber(os.getenv("ACCOUNTS") or "10000")
local counter = 0
local thread_id = 0

function setup(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
end

function init(args)
    math.randomseed(id * 7919 + os.time())
    prefix = "t" .. id .. "-" .. os.time() .. "-"
end

function request()
    counter = counter + 1
    local from = math.random(0, accounts - 1)
    local to = (from + math.random(1, accounts - 1)) % accounts
    local body = '{"txId":"' .. prefix .. counter .. '","from":"w-' .. from .. '","to":"w-' .. to .. '","amount":1}'
    return wrk.format("POST", "/transfers", {["Content-Type"] = "application/json"}, body)
end
