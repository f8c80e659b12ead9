-- wrk: opens accounts w-0 .. w-(ACCOUNTS-1) with a large balance, each once, spread over wrk's threads (THREADS, the
-- same number as wrk's -t); a thread whose share is done reads /health until wrk is stopped (restart.sh stops it once
-- the cluster holds them all).
--   ACCOUNTS=1000000 THREADS=2 wrk -t2 -c16 -d600s -s benchmarks/wrk/accounts.lua http://127.0.0.1:8080
local accounts = tonumber(os.getenv("ACCOUNTS") or "10000")
local threads = tonumber(os.getenv("THREADS") or "2")
local thread_id = 0

function setup(thread)
    thread:set("id", thread_id)
    thread_id = thread_id + 1
end

function init(args)
    next_account = id
end

function request()
    local account = next_account
    next_account = next_account + threads
    if account >= accounts then
        return wrk.format("GET", "/health")
    end
    return wrk.format("POST", "/accounts", {["Content-Type"] = "application/json"},
        '{"id":"w-' .. account .. '","balance":1000000000}')
end
