-- wrk.lua — the one wrk script of the benchmarks.
--
-- Every run counts response status codes per thread and ends with one
-- machine-readable line (see done() below) that bench.sh parses.
--
-- Environment:
--   BENCH_EXPECT  the status every response must have (200, 204, 303);
--                 any other status counts as an error. Unset: any 2xx/3xx.
--   BENCH_TUPLES  a file of prepared moves; when set, every request is a
--                 POST of the next move (see gen.c for the format and for
--                 why each move is legal when it arrives).
--   BENCH_TUPLES_STATE  a file: where each thread stopped in the moves is
--                 written to it at the end; with BENCH_TUPLES_RESUME=1 a run
--                 starts where the one before stopped (the move in flight
--                 when that one ended is sent again, and the answer to each
--                 thread's first request is not judged: it may have been
--                 made already, or not).
--   BENCH_RATE    requests per second over all threads: open loop. Each
--                 thread sends on a fixed schedule of its own (its share of
--                 the rate, from a random phase), whatever the answers take;
--                 a request whose connection is still busy at its time goes
--                 out as soon as it is free, late (counted: "late" and the
--                 largest lateness). The latencies are from the actual send.
--                 Run it with enough connections for the answers in flight.
--
--   BENCH_TABLE_QUEUES=1  moves from threads of several connections each
--                 (the open loop's moves: -t 2 -c 16): a thread keeps a queue
--                 a table and sends a table's next move only after the answer
--                 to its last one (every answer to a move, a refusal too, is
--                 a 303 to /t/TABLE, which names it), so each table's moves
--                 still arrive in order while a slow answer holds up no other
--                 table's. With BENCH_TUPLES_RESUME=1 it goes on where a run
--                 of BENCH_RESUME_THREADS one-connection threads stopped.
--
-- Moves: line k of the file is "slot<TAB>table<TAB>path<TAB>cookie<TAB>body".
-- Thread i of n takes the lines whose slot % n == i - 1 and sends them in
-- file order; each line is sent once. Run it with one connection per
-- thread (-t N -c N): a thread then sends a request only after the answer to
-- the previous one, so a table's moves arrive strictly in order. When a thread runs out it stops and
-- done() reports "exhausted" so that a short file cannot pass unnoticed.

local threads = {}
local nthreads = 0

function setup(thread)
   nthreads = nthreads + 1
   thread:set("tid", nthreads)
   table.insert(threads, thread)
end

codes = {}
sent = 0
exhausted = 0

local tuples = nil
next_tuple = 1
resumed = 0
late = 0
late_max_us = 0

-- A thread's own lines are taken from PATH.N.TID when bench.sh has split
-- the file so (each thread then reads a sixteenth of it): wrk starts its
-- threads one after the other, each after its init(), and its clock only
-- after the last, so a slow init lets the first threads send for longer
-- than the run is counted (rates too high).
local function load_tuples(path, tid, n)
   local list = {}
   local f = io.open(path .. "." .. n .. "." .. tid, "r") or assert(io.open(path, "r"))
   for line in f:lines() do
      local slot, tbl, path_, cookie, body =
         line:match("^(%d+)\t(%d+)\t([^\t]+)\t([^\t]+)\t(.*)$")
      if slot and (tonumber(slot) % n) == tid - 1 then
         list[#list + 1] = wrk.format("POST", path_, {
            ["Cookie"] = cookie,
            ["Content-Type"] = "application/x-www-form-urlencoded",
         }, body)
      end
   end
   f:close()
   return list
end

-- Table queues (BENCH_TABLE_QUEUES): this thread's moves by table, in file
-- order, and the tables with a move to send in turn. A line that a run of
-- `old` one-connection threads (before) has sent is left out; the one it
-- had in flight is sent again and its answer not judged (as resume_at's).
local queues, ready, rhead, rtail, inflight = nil, {}, 1, 0, {}
local function load_queues(path, tid, n, old, at)
   queues = {}
   local rank = {}
   local f = assert(io.open(path, "r"))
   for line in f:lines() do
      local slot, tbl, path_, cookie, body =
         line:match("^(%d+)\t(%d+)\t([^\t]+)\t([^\t]+)\t(.*)$")
      if slot then
         local o = tonumber(slot) % old
         rank[o] = (rank[o] or 0) + 1
         local from = at and at[o + 1] or 1
         if tonumber(slot) % n == tid - 1 and rank[o] >= from then
            local q = queues[tbl]
            if not q then
               q = { h = 1 }
               queues[tbl] = q
               rtail = rtail + 1
               ready[rtail] = tbl
            end
            q[#q + 1] = { req = wrk.format("POST", path_, {
               ["Cookie"] = cookie,
               ["Content-Type"] = "application/x-www-form-urlencoded",
            }, body), unjudged = at ~= nil and rank[o] == from }
         end
      end
   end
   f:close()
end

-- Where thread tid stopped in the run before (BENCH_TUPLES_STATE), or nil.
local function resume_at(tid)
   local f = io.open(os.getenv("BENCH_TUPLES_STATE") or "", "r")
   if not f then return nil end
   local at = nil
   for line in f:lines() do
      local t, n = line:match("^(%d+) (%d+)$")
      if tonumber(t) == tid then at = tonumber(n) end
   end
   f:close()
   return at
end

-- Where every thread of the run before stopped: at[tid], or nil.
local function resume_all()
   local f = io.open(os.getenv("BENCH_TUPLES_STATE") or "", "r")
   if not f then return nil end
   local at = {}
   for line in f:lines() do
      local t, n = line:match("^(%d+) (%d+)$")
      if t then at[tonumber(t)] = tonumber(n) end
   end
   f:close()
   return at
end

function init(args)
   local path = os.getenv("BENCH_TUPLES")
   if path and path ~= "" and os.getenv("BENCH_TABLE_QUEUES") == "1" then
      local at = os.getenv("BENCH_TUPLES_RESUME") == "1" and resume_all() or nil
      load_queues(path, tid, tonumber(os.getenv("BENCH_THREADS") or "1"),
                  tonumber(os.getenv("BENCH_RESUME_THREADS") or "1"), at)
   elseif path and path ~= "" then
      tuples = load_tuples(path, tid, tonumber(os.getenv("BENCH_THREADS") or "1"))
      if os.getenv("BENCH_TUPLES_RESUME") == "1" then
         local at = resume_at(tid)
         if at then
            next_tuple = at
            resumed = 1
         end
      end
   end
end

-- The open loop: delay() is asked before each request of the thread's
-- connections, and answers the time left to the thread's next slot.
local rate = tonumber(os.getenv("BENCH_RATE") or "")
if rate and rate > 0 then
   local ffi = require("ffi")
   ffi.cdef[[
      typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
      int clock_gettime(int, bench_timespec *);
   ]]
   local ts = ffi.new("bench_timespec")
   local function now_ms()
      ffi.C.clock_gettime(1, ts)   -- CLOCK_MONOTONIC
      return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
   end
   local interval = 1000 * tonumber(os.getenv("BENCH_THREADS") or "1") / rate
   local slot = nil
   delay = function()
      local now = now_ms()
      if slot == nil then
         math.randomseed(tid * 7919 + math.floor(now))
         slot = now + math.random() * interval
      end
      local d = slot - now
      slot = slot + interval
      if d < -1 then
         late = late + 1
         if -d * 1000 > late_max_us then late_max_us = -d * 1000 end
      end
      return d > 0 and d or 0
   end
end

-- The next move goes out only after the answer to the previous one (one
-- connection per thread), so the index moves on in response(): wrk calls
-- request() once more before the threads start (to check the script), and
-- that call must not use up a move.
if os.getenv("BENCH_TUPLES") and os.getenv("BENCH_TUPLES") ~= "" and
   os.getenv("BENCH_TABLE_QUEUES") == "1" then
   -- wrk asks thread 1's request() once before the threads start, to check
   -- the script, and sends nothing: that call takes no table.
   -- A move sent again (unjudged) may be refused as already made: a 409
   -- without a Location; so one at a time is in flight, and an answer
   -- without a Location is its.
   local checked, unjudged_t = false, nil
   request = function()
      for _ = rhead, rtail do
         local t = ready[rhead]
         local m = queues[t][queues[t].h]
         if tid == 1 and not checked then
            checked = true
            return m.req
         end
         ready[rhead] = nil
         rhead = rhead + 1
         if m.unjudged and unjudged_t then
            rtail = rtail + 1   -- after the one in flight
            ready[rtail] = t
         else
            if m.unjudged then unjudged_t = t end
            inflight[t] = true
            return m.req
         end
      end
      exhausted = 1
      wrk.thread:stop()
      return wrk.format("GET", "/bench-exhausted")
   end
   response = function(status, headers, body)
      local t = (headers["Location"] or headers["location"] or ""):match("/t/(%d+)") or unjudged_t
      if t == unjudged_t then unjudged_t = nil end
      local q = t and inflight[t] and queues[t]
      if not q then
         codes[status] = (codes[status] or 0) + 1   -- not a move's answer: an error
         return
      end
      inflight[t] = nil
      local m = q[q.h]
      q.h = q.h + 1
      if q.h <= #q then
         rtail = rtail + 1
         ready[rtail] = t
      end
      if m.unjudged then return end
      codes[status] = (codes[status] or 0) + 1
      sent = sent + 1
   end
elseif os.getenv("BENCH_TUPLES") and os.getenv("BENCH_TUPLES") ~= "" then
   request = function()
      local r = tuples[next_tuple]
      if r == nil then
         exhausted = 1
         wrk.thread:stop()
         -- A harmless request for the connection still asking.
         return wrk.format("GET", "/bench-exhausted")
      end
      return r
   end
end

response = response or function(status, headers, body)
   if resumed == 1 then
      -- the move that was in flight when the run before ended: not judged
      resumed = 2
      if tuples and tuples[next_tuple] then next_tuple = next_tuple + 1 end
      return
   end
   codes[status] = (codes[status] or 0) + 1
   if tuples and tuples[next_tuple] then
      next_tuple = next_tuple + 1
      sent = sent + 1
   end
end

-- One line: BENCH key=value ... (times in microseconds).
function done(summary, latency, requests)
   local expect = tonumber(os.getenv("BENCH_EXPECT") or "")
   local total, bad, ex, moves, nlate, lmax = 0, 0, 0, 0, 0, 0
   local seen = {}
   local state = os.getenv("BENCH_TUPLES_STATE")
   local sf = (state and state ~= "" and os.getenv("BENCH_TUPLES") and
               os.getenv("BENCH_TABLE_QUEUES") ~= "1") and io.open(state, "w") or nil
   for i, t in ipairs(threads) do
      if sf then sf:write(string.format("%d %d\n", i, t:get("next_tuple"))) end
      nlate = nlate + (t:get("late") or 0)
      if (t:get("late_max_us") or 0) > lmax then lmax = t:get("late_max_us") end
      local c = t:get("codes")
      for status, n in pairs(c) do
         seen[status] = (seen[status] or 0) + n
         total = total + n
         if expect then
            if status ~= expect then bad = bad + n end
         elseif status < 200 or status > 399 then
            bad = bad + n
         end
      end
      ex = ex + (t:get("exhausted") or 0)
      moves = moves + (t:get("sent") or 0)
   end
   if sf then sf:close() end
   local list = {}
   for status, n in pairs(seen) do list[#list + 1] = status .. ":" .. n end
   table.sort(list)
   local e = summary.errors
   local sock = e.connect + e.read + e.write + e.timeout
   io.write(string.format(
      "BENCH requests=%d duration_us=%d rps=%.1f p50_us=%d p99_us=%d mean_us=%.0f " ..
      "socket_errors=%d status_errors=%d codes=%s exhausted=%d moves_sent=%d " ..
      "offered=%.1f late=%d late_max_us=%d\n",
      summary.requests, summary.duration,
      summary.requests / (summary.duration / 1e6),
      latency:percentile(50), latency:percentile(99), latency.mean,
      sock, bad, table.concat(list, ","), ex, moves, rate or 0, nlate, lmax))
end
