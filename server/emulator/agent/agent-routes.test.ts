import { AlreadyClaimedError, RebateRepository } from '@server/emulator/agent/rebate-repository'
import { type Answer, parseAnswer } from '@server/test-support/answers'
import { createTestApp, type TestApp } from '@server/test-support/test-app'
import { agentInfo } from '@shared/contract/agent'
import { rebateClaim, rebateHistory, rebateSummary } from '@shared/contract/content'
import { ENDPOINTS } from '@shared/contract/registry'
import { toMicro } from '@shared/money'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'

const DAY = 24 * 3600 * 1000
/** Noon, so bets an hour either side stay on the same local day. */
const NOON = new Date(2026, 2, 10, 12, 0).getTime()

let t: TestApp
beforeEach(async () => {
  t = await createTestApp()
  t.clock.freeze(NOON)
})
afterEach(async () => {
  await t.close()
})

const db = () => t.app.emu.db

function playerId(phone: string): number {
  return db().prepare('SELECT id FROM players WHERE phone = ?').pluck().get(phone) as number
}

let phoneSeq = 0
/** A player invited by `inviterId`, written straight into the tree. */
function addPlayer(nickname: string, inviterId: number | null): number {
  phoneSeq++
  const info = db()
    .prepare(
      `INSERT INTO players (phone, nickname, password_hash, invite_code, inviter_id, created_at)
       VALUES (?, ?, 'x', ?, ?, ?)`,
    )
    .run(
      `1550000${String(phoneSeq).padStart(4, '0')}`,
      nickname,
      `T${String(phoneSeq).padStart(5, '0')}`,
      inviterId,
      NOON,
    )
  return Number(info.lastInsertRowid)
}

type Status = 'pending' | 'won' | 'lost' | 'draw'
/** A bet as the games write it: settled now unless pending. */
function bet(player: number, stake: string, status: Status, at = t.clock.now()): void {
  db()
    .prepare(
      `INSERT INTO bets (player_id, game, round_id, bet_type, stake_micro, odds, status, payout_micro, placed_at, draw_at, settled_at)
       VALUES (?, 'hassize', 'r1', 'big', ?, '1.95', ?, ?, ?, ?, ?)`,
    )
    .run(
      player,
      toMicro(stake),
      status,
      status === 'won' ? Math.floor(toMicro(stake) * 1.95) : 0,
      at - 1000,
      at,
      status === 'pending' ? null : at,
    )
}

function tokenOf(player: number): string {
  return t.app.emu.accounts.sessions.create(player, t.clock.now(), 3_600_000 * 24 * 30).token
}

async function get<D = unknown>(url: string, token: string, data?: z.ZodType<D>): Promise<Answer<D>> {
  const body = (await t.app.inject({ url, headers: { token } })).json()
  const path = url.split('?')[0]
  const endpoint = ENDPOINTS.find((e) => e.method === 'GET' && e.path === path)
  if (!endpoint) throw new Error(`no contract for ${url}`)
  // The answer must match the contract the client parses it with.
  parseAnswer(endpoint, body)
  return parseAnswer({ id: endpoint.id, data: data ?? z.custom<D>() }, body)
}

async function claim(token: string) {
  const res = await t.app.inject({ method: 'POST', url: rebateClaim.path, headers: { token } })
  return parseAnswer(rebateClaim, res.json())
}

const balanceOf = (player: number) =>
  db().prepare('SELECT balance_micro FROM players WHERE id = ?').pluck().get(player) as number

/** A → B → C → D → E, a chain of its own, apart from the seeded players. */
function chain() {
  const a = addPlayer('一级玩家', null)
  const b = addPlayer('二级玩家', a)
  const c = addPlayer('三级玩家', b)
  const d = addPlayer('四级玩家', c)
  const e = addPlayer('五级玩家', d)
  return { a, b, c, d, e }
}

describe('referral tree, turnover and rebate', () => {
  it('gives each level of a chain the right turnover, rebate and commission', async () => {
    const { a, b, c, d, e } = chain()
    bet(a, '150', 'lost')
    bet(b, '2000', 'won')
    bet(c, '500', 'lost')
    bet(d, '300', 'won')
    bet(e, '100', 'lost')
    // None of these is turnover: not settled, or a draw.
    bet(b, '9999', 'pending')
    bet(c, '9999', 'draw')

    const info = await get(agentInfo.path, tokenOf(a), agentInfo.data)
    expect(info.data).toMatchObject({
      direct_count: 1,
      team_count: 4,
      today_team_turnover: '2900.00',
      total_team_turnover: '2900.00',
      // 2000 × 0.30% + 500 × 0.15% + 300 × 0.05%; E is level 4, past the commission levels.
      commission_today: '6.90',
      commission_claimable: '6.90',
      commission_total: '0.00',
    })
    expect(info.data.invite_link).toMatch(
      new RegExp(`/login\\?isreg=1&invite_code=${info.data.invite_code}$`),
    )
    expect(info.data.levels.map((l) => [l.level, l.count, l.rate])).toEqual([
      [1, 1, '0.30%'],
      [2, 1, '0.15%'],
      [3, 1, '0.05%'],
      [4, 1, '0.00%'],
    ])

    // own rebate (tier by own turnover) + commission, per member of the chain
    const expected: [number, string, string, string][] = [
      [a, '150.00', '0.45', '6.90'],
      [b, '2000.00', '10.00', '2.00'], // C 500 × 0.30% + D 300 × 0.15% + E 100 × 0.05%
      [c, '500.00', '1.50', '1.05'], // D 300 × 0.30% + E 100 × 0.15%
      [d, '300.00', '0.90', '0.30'], // E 100 × 0.30%
      [e, '100.00', '0.30', '0.00'],
    ]
    for (const [player, turnover, rebate, commission] of expected) {
      const token = tokenOf(player)
      const s = await get(rebateSummary.path, token, rebateSummary.data)
      expect(s.data, `player ${player}`).toMatchObject({
        today_turnover: turnover,
        today_rebate: rebate,
        claimable_rebate: rebate,
        claimable_commission: commission,
        claimed_today: false,
      })
      const before = balanceOf(player)
      const paid = await claim(token)
      expect(paid.code, paid.msg).toBe(1)
      expect(paid.data).toMatchObject({ rebate, commission })
      expect(balanceOf(player) - before).toBe(toMicro(rebate) + toMicro(commission))
    }
    expect(t.app.emu.ledger.drift()).toEqual([])
  })

  it('uses the tier of the whole day: crossing into the next tier raises the rate of all of it', async () => {
    const { b } = chain()
    const token = tokenOf(b)
    bet(b, '999', 'lost')
    let s = await get(rebateSummary.path, token, rebateSummary.data)
    expect(s.data).toMatchObject({ today_tier: 1, rate: '0.30%', today_rebate: '2.99' })
    expect(s.data.next_tier).toEqual({ tier: 2, need_turnover: '1.00', rate_bp: 50, rate: '0.50%' })
    bet(b, '1', 'won')
    s = await get(rebateSummary.path, token, rebateSummary.data)
    expect(s.data).toMatchObject({ today_tier: 2, rate: '0.50%', today_rebate: '5.00' })
  })

  it('pays a claim once a day, even when two arrive together', async () => {
    const { a, b } = chain()
    bet(a, '1000', 'lost')
    bet(b, '1000', 'won')
    const token = tokenOf(a)
    const before = balanceOf(a)
    const [one, two] = await Promise.all([claim(token), claim(token)])
    const codes = [one.code, two.code].sort()
    expect(codes).toEqual([0, 1])
    expect([one.msg, two.msg]).toContain('今日已领取，请明天再来')
    // 1000 × 0.50% rebate + 1000 × 0.30% commission
    expect(balanceOf(a) - before).toBe(toMicro('8.00'))
    expect((await claim(token)).msg).toBe('今日已领取，请明天再来')
    expect(balanceOf(a) - before).toBe(toMicro('8.00'))

    const rows = db()
      .prepare(
        "SELECT amount_micro, memo, ref FROM ledger WHERE player_id = ? AND type = 'rebate' ORDER BY id",
      )
      .all(a)
    expect(rows).toEqual([
      { amount_micro: toMicro('5.00'), memo: '返水', ref: expect.stringMatching(/^rebate_claim:\d+$/) },
      { amount_micro: toMicro('3.00'), memo: '代理佣金', ref: expect.stringMatching(/^rebate_claim:\d+$/) },
    ])
    expect(t.app.emu.ledger.drift()).toEqual([])
  })

  it('refuses a second claim row for the same day in the database itself', () => {
    const { a } = chain()
    const repo = new RebateRepository(db())
    const claimRow = {
      player_id: a,
      claim_day: '2026-03-10',
      rebate_micro: 10_000,
      commission_micro: 0,
      created_at: NOON,
    }
    repo.record(claimRow, [])
    expect(() => repo.record(claimRow, [])).toThrow(AlreadyClaimedError)
  })

  it('tops up a day claimed part-way, the next day, without paying any turnover twice', async () => {
    const { a } = chain()
    const token = tokenOf(a)
    bet(a, '500', 'lost')
    expect((await claim(token)).data).toMatchObject({ rebate: '1.50' })
    bet(a, '500', 'lost') // the day reaches tier 2: 1000 × 0.50% = 5.00, of which 1.50 is paid
    const s = await get(rebateSummary.path, token, rebateSummary.data)
    expect(s.data).toMatchObject({ claimed_today: true, claimable_rebate: '3.50', today_rebate: '5.00' })
    expect((await claim(token)).code).toBe(0)

    t.clock.advance(DAY)
    bet(a, '100', 'won')
    const next = await claim(token)
    expect(next.data).toMatchObject({ rebate: '3.80', commission: '0.00' })
    expect((next.data.days as { date: string; rebate: string }[]).map((d) => [d.date, d.rebate])).toEqual([
      ['2026-03-11', '0.30'],
      ['2026-03-10', '3.50'],
    ])

    const history = await get(`${rebateHistory.path}?page=1&page_size=10`, token, rebateHistory.data)
    expect(history.data.total).toBe(2)
    expect(history.data.list.map((c) => [c.claim_date, c.amount])).toEqual([
      ['2026-03-11', '3.80'],
      ['2026-03-10', '1.50'],
    ])
  })

  it('lets unclaimed days expire after the claim window', async () => {
    const { a } = chain()
    bet(a, '1000', 'lost')
    t.clock.advance(7 * DAY)
    const s = await get(rebateSummary.path, tokenOf(a), rebateSummary.data)
    expect(s.data).toMatchObject({ claimable: '0.00', claim_window_days: 7 })
    expect((await claim(tokenOf(a))).msg).toBe('暂无可领取的返水')
  })

  it('says there is nothing to claim without turnover, and leaves the day open', async () => {
    const { a } = chain()
    const token = tokenOf(a)
    expect((await claim(token)).msg).toBe('暂无可领取的返水')
    bet(a, '100', 'lost')
    expect((await claim(token)).code).toBe(1)
  })

  it('a claimed rebate appears in the fund flow ledger as type rebate', async () => {
    const { a } = chain()
    bet(a, '100', 'lost')
    const paid = await claim(tokenOf(a))
    expect(paid.data.balance).toBe('0.30')
    expect(paid.data.amount).toBe('0.30')
  })
})

describe('team search, turnover records, QR code and rebate config', () => {
  it('searches by id or nickname, never beyond the player’s own team', async () => {
    const { a, b, c, e } = chain()
    const outsider = addPlayer('三级外人', null)
    const search = (token: string, q: string) =>
      get<{ list: { player_id: number; level: number; phone: string }[]; total: number }>(
        `/api/agent/childsearch?${q}`,
        token,
      )

    const all = await search(tokenOf(a), '')
    expect(all.data.total).toBe(4)
    expect(all.data.list.map((m) => m.level)).toEqual([1, 2, 3, 4])
    expect(all.data.list[0]?.phone).toMatch(/^155\*\*\*\d{4}$/)

    expect((await search(tokenOf(a), `keyword=${e}`)).data.list.map((m) => m.player_id)).toEqual([e])
    expect(
      (await search(tokenOf(a), `keyword=${encodeURIComponent('三级')}`)).data.list.map((m) => m.player_id),
    ).toEqual([c])
    // Not the outsider, however it is asked for; not the inviter above; not oneself.
    expect((await search(tokenOf(a), `keyword=${outsider}`)).data.total).toBe(0)
    expect((await search(tokenOf(c), `keyword=${a}`)).data.total).toBe(0)
    expect((await search(tokenOf(c), `keyword=${b}`)).data.total).toBe(0)
    expect((await search(tokenOf(c), `keyword=${c}`)).data.total).toBe(0)
    expect((await search(tokenOf(a), 'keyword=%25')).data.total).toBe(0)
    expect((await search(tokenOf(a), 'level=2')).data.list.map((m) => m.player_id)).toEqual([c])
    expect((await search(tokenOf(outsider), '')).data.total).toBe(0)
  })

  it('reports turnover per day and per member between dates', async () => {
    const { a, b, c } = chain()
    bet(b, '100', 'won', NOON - 2 * DAY)
    bet(b, '200', 'lost')
    bet(c, '50', 'lost')
    bet(c, '70', 'lost', NOON - 10 * DAY)
    bet(a, '999', 'lost') // the player's own turnover is not team turnover
    const token = tokenOf(a)
    type T = {
      start_date: string
      end_date: string
      total_turnover: string
      days: { date: string; turnover: string; active_members: number }[]
      members: { list: { player_id: number; turnover: string }[]; total: number }
    }
    const week = await get<T>('/api/agent/liusui_new', token)
    expect(week.data).toMatchObject({
      start_date: '2026-03-04',
      end_date: '2026-03-10',
      total_turnover: '350.00',
    })
    expect(week.data.days).toHaveLength(7)
    expect(week.data.days.slice(0, 3).map((d) => [d.date, d.turnover, d.active_members])).toEqual([
      ['2026-03-10', '250.00', 2],
      ['2026-03-09', '0.00', 0],
      ['2026-03-08', '100.00', 1],
    ])
    expect(week.data.members.list.map((m) => [m.player_id, m.turnover])).toEqual([
      [b, '300.00'],
      [c, '50.00'],
    ])

    const range = await get<T>('/api/agent/liusui_new?start_date=2026-02-28&end_date=2026-03-01', token)
    expect(range.data.total_turnover).toBe('70.00')
    const one = await get<T>(
      `/api/agent/liusui_new?member_id=${c}&start_date=2026-02-08&end_date=2026-03-10`,
      token,
    )
    expect(one.data.total_turnover).toBe('120.00')

    expect((await get(`/api/agent/liusui_new?member_id=${a}`, tokenOf(b))).msg).toBe('该用户不在您的团队中')
    expect((await get('/api/agent/liusui_new?start_date=2026-01-01&end_date=2026-03-10', token)).msg).toBe(
      '查询范围不能超过31天',
    )
    expect((await get('/api/agent/liusui_new?start_date=2026-03-10&end_date=2026-03-01', token)).msg).toBe(
      '开始日期不能晚于结束日期',
    )
    expect((await get('/api/agent/liusui_new?start_date=2026-02-30', token)).msg).toBe('日期不正确')
  })

  it('seeds a demo team below the demo player, whose members can log in', async () => {
    const demo = playerId('13800138000')
    const info = await get(agentInfo.path, tokenOf(demo), agentInfo.data)
    expect(info.data).toMatchObject({ invite_code: 'DEMO88', direct_count: 2, team_count: 5 })
    expect(info.data.levels.map((l) => l.count)).toEqual([2, 2, 1])
    await t.login('13500135003', 'team1234')
  })

  it('draws the invite link as a PNG QR code', async () => {
    const a = playerId('13800138000')
    const res = await get<{ image: string; invite_link: string; size: number }>(
      '/api/agent/qrcode?size=200',
      tokenOf(a),
    )
    expect(res.data.size).toBe(200)
    // From PUBLIC_URL (unset: http://localhost:<PORT>), never from the request's Host.
    expect(res.data.invite_link).toBe('http://localhost:3000/login?isreg=1&invite_code=DEMO88')
    const spoofed = await t.app.inject({
      url: '/api/agent/info',
      headers: { token: tokenOf(a), host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    })
    expect(spoofed.json().data.invite_link).toBe('http://localhost:3000/login?isreg=1&invite_code=DEMO88')
    const png = Buffer.from(res.data.image.replace('data:image/png;base64,', ''), 'base64')
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect((await get('/api/agent/qrcode?size=5000', tokenOf(a))).code).toBe(40000)
  })

  it('needs a session for the agent calls, but not for the rebate config', async () => {
    for (const url of [
      '/api/agent/info',
      '/api/agent/liusui_new',
      '/api/agent/childsearch',
      '/api/rebate/summary',
    ]) {
      expect((await t.app.inject({ url })).json().code).toBe(10001)
    }
    const cfg = (await t.app.inject({ url: '/api/agent/rebateconfig' })).json()
    expect(cfg.data.tiers[0]).toEqual({
      tier: 1,
      min_turnover: '100.00',
      max_turnover: '1000.00',
      rate_bp: 30,
      rate: '0.30%',
    })
    expect(cfg.data.tiers.at(-1).max_turnover).toBeNull()
    expect(cfg.data.commission_levels).toHaveLength(3)
  })
})
