-- wrk script for bench/wrk_moves.py: each wrk thread is one account (its token is the thread's
-- argument) on one connection, playing its own one-seat yatzy game turn after turn: roll, roll,
-- roll, then score the first legal box the last answer lists. A finished (or refused) game is
-- replaced by a new one: create and start requests are counted apart from the moves.
--
--   wrk -t16 -c16 -d10s -s bench/wrk_moves.lua http://127.0.0.1:8011 -- TOKEN1,TOKEN2,...

local threads = {}
local counter = 0

function setup(thread)
   counter = counter + 1
   thread:set("index", counter)
   table.insert(threads, thread)
end

local API = "/api/v1/games/"
local game_id = nil
local step = 0 -- 0: create, 1: start, then moves
local rolls = 0
local legal = nil
local last = "create"
local headers = {}

function init(args)
   local list = {}
   for token in string.gmatch(args[1] or "", "[^,]+") do
      table.insert(list, token)
   end
   local token = list[((index or 1) - 1) % #list + 1]
   headers["Authorization"] = "Token " .. token
   headers["Content-Type"] = "application/json"
   headers["Accept"] = "application/json"
   moves, creates, starts, failures = 0, 0, 0, 0
end

function request()
   if game_id == nil then
      last = "create"
      return wrk.format("POST", API, headers,
         '{"kind":"yatzy","seats":[{"type":"me"}],"options":{"auto_confirm_seconds":0}}')
   end
   if step == 1 then
      last = "start"
      return wrk.format("POST", API .. game_id .. "/start/", headers, "")
   end
   last = "move"
   if rolls < 3 then
      return wrk.format("POST", API .. game_id .. "/moves/", headers, '{"type":"roll"}')
   end
   return wrk.format("POST", API .. game_id .. "/moves/", headers,
      '{"type":"score","box":"' .. legal .. '"}')
end

function response(status, hdrs, body)
   if last == "create" then
      if status == 201 then
         creates = creates + 1
         game_id = string.match(body, '"id":"([0-9a-f%-]+)"')
         step = 1
      else
         failures = failures + 1
      end
      return
   end
   if last == "start" then
      if status == 200 then
         starts = starts + 1
         step = 2
         rolls = 0
      else
         failures = failures + 1
         game_id = nil
      end
      return
   end
   if status ~= 201 then
      failures = failures + 1
      game_id = nil
      return
   end
   moves = moves + 1
   if string.find(body, '"status":"finished"', 1, true) then
      game_id = nil
      return
   end
   if rolls < 3 then
      rolls = rolls + 1
      legal = string.match(body, '"legal_boxes":%[{"box":"([a-z_]+)"')
   else
      rolls = 0
   end
end

function done(summary, latency, requests)
   local m, c, s, f = 0, 0, 0, 0
   for _, thread in ipairs(threads) do
      m = m + thread:get("moves")
      c = c + thread:get("creates")
      s = s + thread:get("starts")
      f = f + thread:get("failures")
   end
   io.write(string.format("WRK_COUNTS moves=%d creates=%d starts=%d failures=%d\n", m, c, s, f))
end
