/**
 * The Redis scripts of the shared fault layer (./shared-faults.ts). Each runs atomically in Redis,
 * so two processes cannot both take the last firing of a rule, the same `any` session fault, or
 * the same request of a session's limit.
 *
 * Counters live in one hash (KEYS counts) under `<rule id>:m` (matched), `:f` (fired), `:s`
 * (spent), `:d` (draws of its generator), `:a` (the call a `retryPasses` rule awaits the retry
 * of); `p:<id>` is the token that took an `any` session fault, `sl:<id>` the requests a session
 * limit has counted.
 */

/**
 * The rule's generator, as server/fault/rng.ts (mulberry32) draws it: its kth draw, computed
 * directly (the state after k draws is seed + k·0x6d2b79f5). LuaBitOp works on signed 32-bit
 * numbers, so Math.imul is done in 16-bit halves.
 */
const DRAW = `
local TWO32 = 4294967296
local function imul(a, b)
  local ah, al = bit.band(bit.rshift(a, 16), 0xffff), bit.band(a, 0xffff)
  local bh, bl = bit.band(bit.rshift(b, 16), 0xffff), bit.band(b, 0xffff)
  return bit.tobit(al * bl + bit.lshift(ah * bl + al * bh, 16))
end
local C = 0x6d2b79f5
local function draw(seed, k)
  -- k·C mod 2^32 in 16-bit halves of k, every product exact in a double however many draws.
  local kl, kh = k % 65536, math.floor(k / 65536) % 65536
  local kc = (kl * C + ((kh * C) % 65536) * 65536) % TWO32
  local a = (seed % TWO32 + kc) % TWO32
  local t = bit.tobit(a)
  t = imul(bit.bxor(t, bit.rshift(t, 15)), bit.bor(t, 1))
  t = bit.bxor(t, t + imul(bit.bxor(t, bit.rshift(t, 7)), bit.bor(t, 61)))
  local u = bit.bxor(t, bit.rshift(t, 14))
  if u < 0 then u = u + TWO32 end
  return u / TWO32
end
`

/** For tests: the kth draw of a seed's generator, as the decision script computes it. */
export const DRAW_LUA = `${DRAW}
return tostring(draw(tonumber(ARGV[1]), tonumber(ARGV[2])))`

/**
 * The decision among the rules that match a call, as RuleStore.decide takes it, on the shared
 * counters and machine states. KEYS: rule ids (a set), counters (a hash), machine states (a hash).
 * ARGV: the candidates in order as JSON (`id`, `after`, `p` probability, `seed`, and when set
 * `nth`, `every`, `times`, `retry`, `until`, `m` machine key, `w` whenState, `s` setState), the
 * request's time, and its `METHOD path`. Answers JSON: the firing rule's id (or ""), each
 * candidate's counters, and the machine moved.
 */
export const DECIDE_LUA = `${DRAW}
local cands = cjson.decode(ARGV[1])
local now = tonumber(ARGV[2])
local call = ARGV[3]
local firing = ''
local moveKey, moveTo = nil, nil
local out = {}
for _, r in ipairs(cands) do
  if redis.call('SISMEMBER', KEYS[1], r.id) == 1 then
    local pass = false
    if r.m and r.w then
      local st = redis.call('HGET', KEYS[3], r.m)
      if not st then st = 'Started' end
      if st ~= r.w then pass = true end
    end
    if not pass and r.retry then
      if redis.call('HGET', KEYS[2], r.id .. ':a') == call then
        redis.call('HDEL', KEYS[2], r.id .. ':a')
        pass = true
      end
    end
    if not pass then
      local matched = redis.call('HINCRBY', KEYS[2], r.id .. ':m', 1)
      if firing == '' and redis.call('HGET', KEYS[2], r.id .. ':s') ~= '1' then
        local fires = true
        if r['until'] and now >= r['until'] then fires = false
        elseif r.nth and matched ~= r.nth then fires = false
        elseif matched <= r.after then fires = false
        elseif r.every and (matched - r.after) % r.every ~= 0 then fires = false
        elseif r.p < 1 then
          local k = redis.call('HINCRBY', KEYS[2], r.id .. ':d', 1)
          if draw(r.seed, k) >= r.p then fires = false end
        end
        if fires then
          local fired = redis.call('HINCRBY', KEYS[2], r.id .. ':f', 1)
          if r.retry then redis.call('HSET', KEYS[2], r.id .. ':a', call) end
          if r.m and r.s then moveKey, moveTo = r.m, r.s end
          if (r.times and fired >= r.times) or r.nth then redis.call('HSET', KEYS[2], r.id .. ':s', '1') end
          firing = r.id
        end
      end
    end
    local f = redis.call('HGET', KEYS[2], r.id .. ':f') or '0'
    local m = redis.call('HGET', KEYS[2], r.id .. ':m') or '0'
    local s = redis.call('HGET', KEYS[2], r.id .. ':s') == '1'
    out[#out + 1] = { r.id, tonumber(m), tonumber(f), s }
  end
end
if moveKey then redis.call('HSET', KEYS[3], moveKey, moveTo) end
return cjson.encode({ f = firing, c = out, mk = moveKey or '', mt = moveTo or '' })
`

/**
 * Counts a call on rules that fire whatever the counts (none is counted): KEYS rule ids, counters;
 * ARGV the ids that matched, then the one that fired (or ""). Rules removed meanwhile are skipped.
 */
export const COUNT_LUA = `
local fired = ARGV[#ARGV]
for i = 1, #ARGV - 1 do
  local id = ARGV[i]
  if redis.call('SISMEMBER', KEYS[1], id) == 1 then
    redis.call('HINCRBY', KEYS[2], id .. ':m', 1)
    if id == fired then redis.call('HINCRBY', KEYS[2], id .. ':f', 1) end
  end
end
return 1
`

/**
 * The session part of a call with a token. KEYS: counters. ARGV: the token, the `any` faults
 * waiting in its scope as JSON (`id`, `at`, `n` its limit in requests), the token's own limit in
 * requests (its id, or ""). The first `any` fault nobody took is taken by this token; those it took
 * before (perhaps through another process) are answered too. Then the request is counted on the
 * token's limit in requests: one it took with an `any` fault, else its own. Answers JSON.
 */
export const SESSION_LUA = `
local token = ARGV[1]
local pending = cjson.decode(ARGV[2])
local limitId = ARGV[3]
local taken = {}
local claimed = false
for _, p in ipairs(pending) do
  local field = 'p:' .. p.id
  local owner = redis.call('HGET', KEYS[1], field)
  local mine = nil
  if not owner then
    if not claimed then
      redis.call('HSET', KEYS[1], field, cjson.encode({ t = token, at = p.at }))
      claimed = true
      mine = p.at
    end
  else
    local o = cjson.decode(owner)
    if o.t == token then mine = o.at end
  end
  if mine then
    taken[#taken + 1] = { id = p.id, at = mine }
    if p.n then limitId = p.id end
  end
end
local used = -1
if limitId ~= '' then used = redis.call('HINCRBY', KEYS[1], 'sl:' .. limitId, 1) end
if #taken == 0 then return cjson.encode({ limit = limitId, used = used }) end
return cjson.encode({ taken = taken, limit = limitId, used = used })
`

/** Releases the lock only if it is still this process's: KEYS lock, ARGV its value. */
export const UNLOCK_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`
