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
local next_tuple = 1

local function load_tuples(path, tid, n)
   local list = {}
   local f = assert(io.open(path, "r"))
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

function init(args)
   local path = os.getenv("BENCH_TUPLES")
   if path and path ~= "" then
      tuples = load_tuples(path, tid, tonumber(os.getenv("BENCH_THREADS") or "1"))
   end
end

-- The next move goes out only after the answer to the previous one (one
-- connection per thread), so the index moves on in response(): wrk calls
-- request() once more before the threads start (to check the script), and
-- that call must not use up a move.
if os.getenv("BENCH_TUPLES") and os.getenv("BENCH_TUPLES") ~= "" then
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

function response(status, headers, body)
   codes[status] = (codes[status] or 0) + 1
   if tuples and tuples[next_tuple] then
      next_tuple = next_tuple + 1
      sent = sent + 1
   end
end

-- One line: BENCH key=value ... (times in microseconds).
function done(summary, latency, requests)
   local expect = tonumber(os.getenv("BENCH_EXPECT") or "")
   local total, bad, ex, moves = 0, 0, 0, 0
   local seen = {}
   for _, t in ipairs(threads) do
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
   local list = {}
   for status, n in pairs(seen) do list[#list + 1] = status .. ":" .. n end
   table.sort(list)
   local e = summary.errors
   local sock = e.connect + e.read + e.write + e.timeout
   io.write(string.format(
      "BENCH requests=%d duration_us=%d rps=%.1f p50_us=%d p99_us=%d mean_us=%.0f " ..
      "socket_errors=%d status_errors=%d codes=%s exhausted=%d moves_sent=%d\n",
      summary.requests, summary.duration,
      summary.requests / (summary.duration / 1e6),
      latency:percentile(50), latency:percentile(99), latency.mean,
      sock, bad, table.concat(list, ","), ex, moves))
end
