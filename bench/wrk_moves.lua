-- wrk script of bench/serve.py: every request is a legal yatzy move on a game of its own thread.
--
--   wrk -t T -c C -d 15s --latency -s bench/wrk_moves.lua http://127.0.0.1:PORT -- LIST MODE FLOOR [SEATS]
--
-- LIST.<n> (n = 0 .. T-1, one file per wrk thread, so no game is shared by two threads): one game a
-- line, "<path> <token or -> <moves already made>". A thread goes round its games in turn, so that
-- one game's consecutive moves are a whole round apart, never two in flight at once as long as a
-- thread keeps more games than connections (FLOOR games at least). A game's counter c gives its
-- next move: c % 4 in {0, 1, 2} a roll, c % 4 == 3 the score of box c // (4 * SEATS), in sheet
-- order (the yatzy box last, so the joker rule, which needs it already scored, never refuses one).
-- SEATS (1 by default): the games' seats, all played by the token's account (its own seat and hot
-- seats), each seat's turn in order, so that every seat fills the same box in the same round.
-- MODE "project": a game leaves the round after its 52 x SEATS-th move (it is finished); when a
-- thread has fewer than FLOOR games left it stops, and done() prints it (the bench then says the
-- row is invalid: the games ran out). MODE "anchor": the anchor has no rules, a game never ends.
--
-- No response() hook in a measured run: it would slow wrk down; wrk's own "Non-2xx or 3xx
-- responses" count is read. With WRK_MOVES_CAPTURE=PREFIX in the environment (the bench's short
-- rerun after a row with errors), the bodies of the first answers >= 300 go to PREFIX.<thread>.

local BOXES = {
  "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind", "four_of_a_kind",
  "full_house", "small_straight", "large_straight", "chance", "yatzy",
}
local ROLL = '{"type":"roll"}'

local threads = {}
local thread_count = 0

function setup(thread)
  thread:set("id", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

function init(args)
  local list, mode = args[1], args[2]
  limited = mode == "project"
  floor = tonumber(args[3]) or 1
  seats = tonumber(args[4]) or 1
  moves_per_game = 4 * #BOXES * seats
  games = {}
  for line in io.lines(list .. "." .. id) do
    local path, token, count = line:match("^(%S+) (%S+) (%d+)$")
    local headers = { ["Content-Type"] = "application/json" }
    if token ~= "-" then
      headers["Authorization"] = "Token " .. token
    end
    local c = tonumber(count)
    if not limited or c < moves_per_game then
      -- a roll is the same request every time: formatted once
      table.insert(games, {
        path = path, headers = headers, c = c, roll = wrk.format("POST", path, headers, ROLL),
      })
    end
  end
  position = 0
  sent = 0
  finished = 0
  exhausted = 0
  -- wrk 4.1 calls thread 0's request() once before the run, to check what it returns, and never
  -- sends that: the call must not count as a move (it did: that game's counter ran one move
  -- ahead of the game, whose rolls were then refused whenever it stood at its third roll).
  checking = id == 0
end

function request()
  if checking then
    checking = false
    return wrk.format("GET", "/health/live")
  end
  if #games < floor then
    -- Out of games: stop rather than send a move that cannot be legal; the bench reads `exhausted`.
    -- A stopped thread's event loop ends: no answer to this request is counted.
    exhausted = 1
    wrk.thread:stop()
    return wrk.format("GET", "/health/live")
  end
  position = position % #games + 1
  local game = games[position]
  local c = game.c
  game.c = c + 1
  sent = sent + 1
  local req
  if c % 4 == 3 then
    -- The anchor's games never end (it has no rules): its boxes go round again.
    local box = BOXES[math.floor(c / (4 * seats)) % #BOXES + 1]
    local body = '{"type":"score","box":"' .. box .. '"}'
    req = wrk.format("POST", game.path, game.headers, body)
  else
    req = game.roll
  end
  if limited and game.c >= moves_per_game then
    table.remove(games, position)
    position = position - 1
    finished = finished + 1
  end
  return req
end

local capture = os.getenv("WRK_MOVES_CAPTURE")
if capture then
  captured = 0
  function response(status, headers, body)
    if status >= 300 and captured < 50 then
      captured = captured + 1
      local file = io.open(capture .. "." .. id, "a")
      file:write(status, " ", (body:gsub("%s+", " ")), "\n")
      file:close()
    end
  end
end

function done(summary, latency, requests)
  -- Only flat values cross from a thread's Lua state to this one (a nested table crashes wrk 4.1).
  local sent_all, finished_all, exhausted_all = 0, 0, 0
  for _, thread in ipairs(threads) do
    sent_all = sent_all + (thread:get("sent") or 0)
    finished_all = finished_all + (thread:get("finished") or 0)
    exhausted_all = exhausted_all + (thread:get("exhausted") or 0)
  end
  io.write(string.format("moves: sent %d games_finished %d threads_exhausted %d\n",
    sent_all, finished_all, exhausted_all))
end
