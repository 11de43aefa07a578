import { parseAnswer } from '@server/test-support/answers'
import { createTestApp, type TestApp } from '@server/test-support/test-app'
import { GAME_ENDPOINTS } from '@shared/contract/games'
import { blockHash, lotteryFloats, walkChain, webCryptoHasher } from '@shared/games/chain'
import { drawOutcome, FLOATS_NEEDED } from '@shared/games/outcome'
import type { InjectOptions } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { z } from 'zod'

const T0 = Date.UTC(2026, 10, 22, 4, 0, 0) + 500 // 12:00:00.5 in UTC+8
const DEMO_BET_ADDRESS = 'THHokCProneknUpbJfWrE2SzhgP11T1J1g'
const RECEIVING = {
  big_small: 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R',
  odd_even: 'TTYt4JnPCTLk1dhZit4LuyZtET8mUQp3eq',
  banker_player: 'TCGiqPXkZctFdxZuJbrnpKCS9KgBk2rnmv',
}

let t: TestApp
let token: string
// biome-ignore lint/suspicious/noExplicitAny: answers are checked against the contract below, then read freely
type Env = { code: number; msg?: string; data: any }

/** Every answer of a game endpoint must be its success envelope or a refusal, per the contract. */
function checked(url: string, env: Env): Env {
  const path = url.split('?')[0]
  const endpoint = GAME_ENDPOINTS.find((e) => e.path === path)
  if (endpoint) parseAnswer<z.ZodType>(endpoint, env)
  return env
}

const inject = async (opts: InjectOptions & { url: string }): Promise<Env> =>
  checked(opts.url, (await t.app.inject(opts)).json())
const get = (url: string, tok?: string) => inject({ method: 'GET', url, headers: tok ? { token: tok } : {} })
const postJson = (url: string, body: object, headers: Record<string, string> = {}) =>
  inject({ method: 'POST', url, payload: body, headers: { token, ...headers } })
const postForm = (url: string, form: Record<string, string>, tok = token) =>
  inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(form).toString(),
    headers: { token: tok, 'content-type': 'application/x-www-form-urlencoded' },
  })
const balance = async (tok = token) =>
  (await get('/api/api/getBalance?player_id=1', tok)).data.balance as string

// Each test starts from the seed, the clock frozen at T0: none depends on another's bets or clock.
beforeEach(async () => {
  t = await createTestApp({ GAME_CHAIN_LENGTH: '5000' })
  t.clock.freeze(T0)
  token = (await t.login()).token
})
afterEach(() => t.close())

const bet = (game: string, round_id: string, bets: { bet_type: string; amount: string }[]) =>
  postJson('/api/games/bet', { game, round_id, bets })

describe('games API', () => {
  it('lists the games with their timing and limits', async () => {
    const res = await get('/api/games/list')
    expect(res.code).toBe(1)
    expect(res.data.list.map((g: { game: string }) => g.game)).toEqual([
      'qukuai',
      'hassize',
      'kuaisan',
      'shishicai',
      'saiche',
    ])
    expect(res.data.list[0]).toMatchObject({
      name: '区块游戏',
      path: '/games/qukuai',
      kind: 'hash',
      round_ms: 3000,
      seal_ms: 1000,
      min_stake: '1.00',
      max_stake: '10000.00',
    })
    expect(res.data.list[2]).toMatchObject({ kind: 'lottery', round_ms: 60_000, seal_ms: 3000 })
  })

  it('publishes the terminal hash before any round', async () => {
    const res = await get('/api/games/commitment')
    expect(res.data).toMatchObject({
      chain_length: 5000,
      start_height: Math.floor(T0 / 3000),
      block_ms: 3000,
    })
    expect(res.data.terminal_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('shows the current round with server time, countdowns and state', async () => {
    const res = await get('/api/games/round?game=kuaisan')
    expect(res.data).toMatchObject({
      game: 'kuaisan',
      round_id: '202611220721',
      server_time: T0,
      ms_to_draw: 59_500,
      ms_to_seal: 56_500,
      state: 'OPEN',
      next: { round_id: '202611220722' },
    })
    const q = await get('/api/games/round?game=qukuai')
    expect(q.data).toMatchObject({
      height: Math.floor(T0 / 3000) + 1,
      ms_to_draw: 2500,
      ms_to_seal: 1500,
      state: 'OPEN',
    })
  })

  it('shows rules with odds and house edge', async () => {
    const res = await get('/api/games/rules?game=qukuai')
    const big = res.data.bet_types.find((b: { bet_type: string }) => b.bet_type === 'big')
    expect(big).toMatchObject({ label: '大', odds: '1.96', win_probability: 0.5 })
    expect(big.house_edge).toBeCloseTo(0.02, 10)
  })

  it('places bets: same side adds, both sides and bad stakes are refused, balance moves once', async () => {
    const round = (await get('/api/games/round?game=kuaisan')).data
    const before = await balance()
    expect(before).toBe('1000.00')
    const first = await bet('kuaisan', round.round_id, [
      { bet_type: 'big', amount: '10' },
      { bet_type: 'sum_8', amount: '2.5' },
    ])
    expect(first.code).toBe(1)
    expect(first.data.balance).toBe('987.50')
    const again = await bet('kuaisan', round.round_id, [{ bet_type: 'big', amount: '5' }])
    expect(again.data.bets[0]).toMatchObject({
      bet_type: 'big',
      stake: '15.00',
      odds: '1.96',
      status: 'pending',
      label: '大',
    })
    const both = await bet('kuaisan', round.round_id, [{ bet_type: 'small', amount: '5' }])
    expect(both).toMatchObject({ code: 0, msg: '同一期不能同时投注 小 和 大' })
    const low = await bet('kuaisan', round.round_id, [{ bet_type: 'odd', amount: '0.5' }])
    expect(low.msg).toBe('单注金额不能低于 1')
    const high = await bet('kuaisan', round.round_id, [{ bet_type: 'big', amount: '4990' }])
    expect(high.msg).toBe('大 本期累计投注不能超过 5000')
    const unknown = await bet('kuaisan', round.round_id, [{ bet_type: 'huge', amount: '5' }])
    expect(unknown.msg).toBe('未知的投注项：huge')
    const broke = await bet('kuaisan', round.round_id, [{ bet_type: 'odd', amount: '2000' }])
    expect(broke.msg).toBe('余额不足')
    expect(await balance()).toBe('982.50')
  })

  it('replays an idempotent bet instead of placing it twice', async () => {
    const round = (await get('/api/games/round?game=saiche')).data
    const body = { game: 'saiche', round_id: round.round_id, bets: [{ bet_type: 'p1_c3', amount: '1' }] }
    const a = await postJson('/api/games/bet', body, { 'idempotency-key': 'bet-once-1' })
    const b = await postJson('/api/games/bet', body, { 'idempotency-key': 'bet-once-1' })
    expect(b).toEqual(a)
    expect(await balance()).toBe('999.00')
  })

  it('refuses a sealed round with a clear error, not a silent move', async () => {
    const round = (await get('/api/games/round?game=kuaisan')).data
    t.clock.advance(round.ms_to_seal)
    const r = await get('/api/games/round?game=kuaisan')
    expect(r.data).toMatchObject({ state: 'SEALED', ms_to_seal: 0, round_id: round.round_id })
    const res = await bet('kuaisan', round.round_id, [{ bet_type: 'odd', amount: '1' }])
    expect(res).toMatchObject({ code: 0, msg: `第 ${round.round_id} 期已封盘，请投注下一期` })
    const next = await bet('kuaisan', round.next.round_id, [{ bet_type: 'odd', amount: '1' }])
    expect(next.code).toBe(1)
  })

  it('draws at the block, settles, and the result can be verified in the browser’s way', async () => {
    const round = (await get('/api/games/round?game=kuaisan')).data
    expect((await bet('kuaisan', round.round_id, [{ bet_type: 'big', amount: '15' }])).code).toBe(1)
    t.clock.advance(round.ms_to_draw)
    const results = await get('/api/games/results?game=kuaisan&page_size=5')
    const r = results.data.list[0]
    expect(r.round_id).toBe(round.round_id)
    const hist = await get('/api/games/bets?game=kuaisan&page_size=10', token)
    const settled = hist.data.list.filter((b: { round_id: string }) => b.round_id === round.round_id)
    expect(settled.map((b: { status: string }) => b.status).every((s: string) => s !== 'pending')).toBe(true)
    const sum = r.numbers.reduce((a: number, b: number) => a + b, 0)
    const big = settled.find((b: { bet_type: string }) => b.bet_type === 'big')
    expect(big.status).toBe(sum >= 11 ? 'won' : 'lost')
    expect(big.payout).toBe(sum >= 11 ? '29.40' : '0.00')

    const v = (await get(`/api/games/verify?game=kuaisan&round_id=${round.round_id}`)).data
    // Recompute as the verify page does: key → block hash → floats → dice; key → terminal.
    expect(await blockHash(webCryptoHasher, v.result.height, v.key)).toBe(r.block_hash)
    const floats = await lotteryFloats(
      webCryptoHasher,
      r.block_hash,
      'kuaisan',
      r.height,
      FLOATS_NEEDED.kuaisan,
    )
    expect(drawOutcome('kuaisan', r.block_hash, floats).numbers).toEqual(r.numbers)
    expect(await walkChain(webCryptoHasher, v.key, v.block_number)).toBe(v.commitment.terminal_hash)
    for (const a of v.anchors)
      expect(await walkChain(webCryptoHasher, v.key, v.block_number - a.block_number)).toBe(a.key)
    expect(v.lottery_messages).toEqual([`kuaisan:${r.height}:0`])
    const notYet = await get(`/api/games/verify?game=kuaisan&round_id=${round.next.round_id}`)
    expect(notYet.msg).toBe('该期尚未开奖')
  })

  it('filters the history by status and date', async () => {
    const round = (await get('/api/games/round?game=kuaisan')).data
    expect((await bet('kuaisan', round.round_id, [{ bet_type: 'odd', amount: '1' }])).code).toBe(1)
    const pending = await get('/api/games/bets?status=pending', token)
    expect(pending.data.list.every((b: { status: string }) => b.status === 'pending')).toBe(true)
    const today = await get('/api/games/bets?date_from=2026-11-22&date_to=2026-11-22', token)
    const other = await get('/api/games/bets?date_from=2026-11-23', token)
    expect(today.data.total).toBeGreaterThan(0)
    expect(other.data.total).toBe(0)
  })

  it('manages bet addresses', async () => {
    const list = await get('/api/api2/bet/betaddress', token)
    expect(list.data.list.map((a: { address: string }) => a.address)).toEqual([DEMO_BET_ADDRESS])
    expect(list.data.receiving.map((a: { kind: string }) => a.kind)).toEqual([
      'big_small',
      'odd_even',
      'banker_player',
    ])
    const bound = await postForm('/api/api2/bet/bind', {
      address: 'TETZ2NbFKot9zCA33v8rgA5FuyFDyFuxWe',
      label: '备用',
    })
    expect(bound.data).toMatchObject({ address: 'TETZ2NbFKot9zCA33v8rgA5FuyFDyFuxWe', label: '备用' })
    expect(
      (await postForm('/api/api2/bet/bind', { address: 'TETZ2NbFKot9zCA33v8rgA5FuyFDyFuxWe' })).msg,
    ).toBe('该地址已被绑定')
    expect(
      (await postForm('/api/api2/bet/bind', { address: 'TETZ2NbFKot9zCA33v8rgA5FuyFDyFuxWf' })).code,
    ).toBe(40000)
    const upd = await postForm('/api/api2/bet/update', { id: String(bound.data.id), label: '新备注' })
    expect(upd.data.label).toBe('新备注')
    expect((await postForm('/api/delete_bet_address', { id: String(bound.data.id) })).code).toBe(1)
    expect((await postForm('/api/delete_bet_address', { id: String(bound.data.id) })).msg).toBe(
      '投注地址不存在',
    )
  })

  it('takes transfer bets: the units digit picks the side, invalid amounts are refunded', async () => {
    const before = await balance()
    const ok = await postForm('/api/games/transfer', {
      from_address: DEMO_BET_ADDRESS,
      to_address: RECEIVING.big_small,
      amount: '17',
    })
    expect(ok.data).toMatchObject({
      kind: 'big_small',
      status: 'bet',
      amount: '17.00',
      bet: { bet_type: 'big', source: 'transfer', stake: '17.00' },
    })
    expect(await balance()).toBe(before)
    const bad = await t.app.inject({
      method: 'POST',
      url: '/__emu/transfers',
      payload: { from_address: DEMO_BET_ADDRESS, to_address: RECEIVING.banker_player, amount: '25' },
    })
    expect(bad.json().data).toMatchObject({ status: 'refunded', reason: '金额个位数无效', bet: null })
    expect(await balance()).toBe((Number(before) + 25).toFixed(2))
    t.clock.advance(3000)
    const state = (await get('/__emu/games')).data
    expect(state.commitment.chain_length).toBe(5000)
    expect(state.cursors.qukuai).toBe(t.clock.now())
    const list = await get('/api/games/transfers', token)
    expect(list.data.list[1].bet.status).not.toBe('pending')
  })

  it('says so when the chain is spent', async () => {
    // The chain is committed when first asked for (here at T0); 5000 blocks later it is spent.
    expect((await get('/api/games/commitment')).data.chain_length).toBe(5000)
    t.clock.advance(5000 * 3000)
    const round = (await get('/api/games/round?game=qukuai')).data
    const res = await bet('qukuai', round.round_id, [{ bet_type: 'big', amount: '1' }])
    expect(res.msg).toBe('哈希链的区块已用完，请重置模拟器（POST /__emu/reset?scope=*）')
  })
})
