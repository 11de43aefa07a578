import { DEMO } from '@server/test-support/test-app'
import { ENDPOINTS } from '@shared/contract/registry'
import { fundFlow } from '@shared/contract/wallet'
import { toMicro } from '@shared/money'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Env, type GamesKit, gamesKit, T0 } from '../games/games-test-kit'
import { ProtectionRepository } from './protection-repository'

// T0 is Sunday 2026-11-22, 12:00:00.5 in China Standard Time.
const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Monday 2026-11-23 00:00 CST: the next business day, week and (not) month. */
const NEXT_DAY = Date.UTC(2026, 10, 22, 16, 0, 0)

let kit: GamesKit
let token: string
let playerId: number

beforeEach(async () => {
  kit = await gamesKit(T0, 0)
  const demo = kit.players[0]
  if (!demo) throw new Error('no demo player')
  ;({ token, playerId } = demo)
})
afterEach(async () => {
  await kit.t.close()
})

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})

const get = (url: string, tok = token) => kit.call({ method: 'GET', url, headers: { token: tok } })
const post = (url: string, fields: Record<string, string> = {}, tok = token) => {
  const f = form(fields)
  return kit.call({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, token: tok } })
}
const postJson = (url: string, body: unknown, tok = token) =>
  kit.call({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', token: tok },
  })

const setLimit = (kind: string, period: string, amount: string) =>
  post('/api/protection/limits', { kind, period, amount })
const topUp = (amount: string) => post('/api/usdtpay', { amount })
const limitOf = async (kind: string, period: string) => {
  const res = await get('/api/protection/limits')
  return res.data.list.find((l: { kind: string; period: string }) => l.kind === kind && l.period === period)
}
const login = (phone = DEMO.phone, password = DEMO.password) =>
  kit.call({ method: 'POST', url: '/api/login', ...form({ phone, password }) })

async function bet(amount: string, tok = token): Promise<Env> {
  const round = (await get('/api/games/round?game=kuaisan', tok)).data
  return postJson(
    '/api/games/bet',
    { game: 'kuaisan', round_id: round.round_id, bets: [{ bet_type: 'big', amount }] },
    tok,
  )
}

const ledgerRows = () =>
  kit.t.app.emu.db.prepare('SELECT COUNT(*) FROM ledger WHERE player_id = ?').pluck().get(playerId)
const depositRows = () =>
  kit.t.app.emu.db.prepare('SELECT COUNT(*) FROM deposits WHERE player_id = ?').pluck().get(playerId)

describe('deposit limits', () => {
  it('a first limit applies at once; an order reaching it exactly passes, one micro-unit more is refused', async () => {
    const set = await setLimit('deposit', 'day', '100')
    expect(set.code).toBe(1)
    expect(set.data.limit).toMatchObject({ limit: '100.00', pending: null, resets_at: NEXT_DAY })
    expect((await topUp('60')).code).toBe(1)
    expect((await topUp('40')).code).toBe(1)
    const before = depositRows()
    const over = await topUp('10')
    expect(over.code).not.toBe(1)
    expect(over.msg).toBe(
      '超出每日充值限额 100.00 USDT：本期已充值 100.00 USDT，最多还可充值 0.00 USDT，限额于 2026-11-23 00:00（北京时间）重置',
    )
    expect(depositRows()).toBe(before)
    expect(await limitOf('deposit', 'day')).toMatchObject({ used: '100.00', remaining: '0.00' })
  })

  it('counts orders in the business day and week: Monday 00:00 CST starts both from zero', async () => {
    await setLimit('deposit', 'day', '50')
    await setLimit('deposit', 'week', '80')
    // Saturday, then Sunday: the same week, different days.
    kit.t.clock.freeze(T0 - DAY)
    expect((await topUp('50')).code).toBe(1)
    expect((await topUp('10')).msg).toContain('每日充值限额 50.00 USDT')
    kit.t.clock.freeze(T0)
    expect((await topUp('40')).msg).toContain('每周充值限额 80.00 USDT')
    expect((await topUp('30')).code).toBe(1)
    kit.t.clock.freeze(NEXT_DAY - 1)
    expect((await topUp('10')).msg).toContain('每周充值限额')
    kit.t.clock.freeze(NEXT_DAY)
    expect((await topUp('50')).code).toBe(1)
  })

  it('a raise waits 24 h: refused before, applied at the time shown', async () => {
    await setLimit('deposit', 'day', '20')
    const raise = await setLimit('deposit', 'day', '500')
    expect(raise.data.limit).toMatchObject({
      limit: '20.00',
      pending: { limit: '500.00', effective_at: T0 + DAY },
    })
    expect((await topUp('30')).msg).toContain('每日充值限额 20.00 USDT')
    kit.t.clock.freeze(T0 + DAY - 1)
    expect((await topUp('30')).msg).toContain('每日充值限额 20.00 USDT')
    // Asking again does not restart the wait.
    await setLimit('deposit', 'day', '500')
    kit.t.clock.freeze(T0 + DAY)
    expect(await limitOf('deposit', 'day')).toMatchObject({ limit: '500.00', pending: null })
    expect((await topUp('30')).code).toBe(1)
  })

  it('a lower limit applies at once and cancels a waiting raise; removal waits 24 h', async () => {
    await setLimit('deposit', 'month', '300')
    await setLimit('deposit', 'month', '900')
    const lower = await setLimit('deposit', 'month', '100')
    expect(lower.data.limit).toMatchObject({ limit: '100.00', pending: null })
    const removal = await setLimit('deposit', 'month', '')
    expect(removal.data.limit).toMatchObject({
      limit: '100.00',
      pending: { limit: null, effective_at: T0 + DAY },
    })
    expect((await topUp('150')).msg).toContain('每月充值限额 100.00 USDT')
    kit.t.clock.freeze(T0 + DAY)
    expect((await limitOf('deposit', 'month')).limit).toBeNull()
    expect((await topUp('150')).code).toBe(1)
  })

  it('refuses bad input with a message naming the field', async () => {
    const res = await setLimit('deposit', 'year', '10')
    expect(res.code).toBe(40000)
    expect(res.msg).toContain('period')
    expect((await setLimit('deposit', 'day', '-5')).code).toBe(40000)
  })
})

describe('loss limits', () => {
  it('a stake reaching the limit exactly passes; one more is refused with nothing written', async () => {
    await setLimit('loss', 'day', '20')
    expect((await bet('15')).code).toBe(1)
    expect((await bet('5')).code).toBe(1)
    const rows = ledgerRows()
    const over = await bet('1')
    expect(over.code).not.toBe(1)
    expect(over.msg).toBe(
      '超出每日亏损限额 20.00 USDT：本期净亏损 20.00 USDT，最多还可投注 0.00 USDT，限额于 2026-11-23 00:00（北京时间）重置',
    )
    expect(ledgerRows()).toBe(rows)
    expect(kit.balanceMicro(playerId)).toBe(toMicro('980'))
  })

  it('counts payouts against stakes: a winning round gives room back', async () => {
    await setLimit('loss', 'day', '10')
    const placed = await bet('10')
    expect(placed.code).toBe(1)
    const round = (await get('/api/games/round?game=kuaisan')).data
    kit.t.clock.freeze(T0 + round.ms_to_draw)
    const settled = (await get('/api/games/bets?game=kuaisan')).data.list[0]
    const lossAfter = 10 - Number(settled.payout)
    expect((await limitOf('loss', 'day')).used).toBe(Math.max(0, lossAfter).toFixed(2))
    const room = await bet('10')
    expect(room.code === 1).toBe(lossAfter + 10 <= 10)
  })

  it('a raise before 24 h is not applied', async () => {
    await setLimit('loss', 'week', '5')
    await setLimit('loss', 'week', '100')
    kit.t.clock.freeze(T0 + 23 * HOUR)
    expect((await bet('6')).msg).toContain('每周亏损限额 5.00 USDT')
    kit.t.clock.freeze(T0 + DAY)
    expect((await bet('6')).code).toBe(1)
  })

  it('refunds a transfer bet that would pass the loss limit', async () => {
    await setLimit('loss', 'day', '5')
    const transfer = await kit.call({
      method: 'POST',
      url: '/__emu/transfers',
      payload: {
        from_address: 'THHokCProneknUpbJfWrE2SzhgP11T1J1g',
        to_address: 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R',
        amount: '18',
      },
    })
    expect(transfer.code).toBe(1)
    expect(transfer.data).toMatchObject({ status: 'refunded' })
    expect(transfer.data.reason).toContain('每日亏损限额 5.00 USDT')
  })
})

describe('time-out and self-exclusion', () => {
  it('needs the login password', async () => {
    const res = await post('/api/protection/exclusion', { period: '24h', password: 'wrong' })
    expect(res.code).not.toBe(1)
    expect(res.msg).toBe('登录密码错误，还可尝试 4 次')
    expect((await get('/api/protection/limits')).code).toBe(1)
    expect((await login()).code).toBe(1)
  })

  it("counts its password checks in the login password's lock: a stolen session cannot guess it", async () => {
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post('/api/protection/exclusion', { period: '24h', password: `guess-${i}` }),
      ),
    )
    expect(guesses.filter((g) => g.msg === '登录密码错误次数过多，请 30分钟后再试')).toHaveLength(25)
    // Locked: the right password starts nothing, and the player can still log in.
    const right = await post('/api/protection/exclusion', { period: '24h', password: DEMO.password })
    expect(right.msg).toBe('登录密码错误次数过多，请 30分钟后再试')
    expect(kit.t.app.emu.protection.guard.activeExclusion(playerId, kit.t.clock.now())).toBeUndefined()
    expect((await login()).code).toBe(1)
    // The same lock covers the other checks of the login password.
    const change = await post('/api/users/change-password', {
      old_password: DEMO.password,
      new_password: 'a fresh passphrase',
    })
    expect(change.msg).toBe('登录密码错误次数过多，请 30分钟后再试')
  })

  it('starts at once: sessions end, login says until when, pending bets settle, ends on time', async () => {
    expect((await bet('10')).code).toBe(1)
    const other = await login()
    const res = await post('/api/protection/exclusion', { period: '24h', password: DEMO.password })
    expect(res.code).toBe(1)
    expect(res.data).toMatchObject({ kind: 'timeout', started_at: T0, ends_at: T0 + DAY })
    expect((await get('/api/protection/limits')).code).toBe(10001)
    expect((await get('/api/protection/limits', other.data.token)).code).toBe(10001)
    const refused = await login()
    expect(refused.code).not.toBe(1)
    expect(refused.msg).toContain('您已选择暂停游戏，至 2026-11-23 12:00（北京时间）结束')

    const round = (await get('/api/games/round?game=kuaisan', kit.players[1]?.token)).data
    kit.t.clock.freeze(T0 + round.ms_to_draw + 1000)
    const bets = kit.t.app.emu.db.prepare('SELECT status FROM bets WHERE player_id = ?').pluck().all(playerId)
    expect(bets).toHaveLength(1)
    expect(bets[0]).not.toBe('pending')

    kit.t.clock.freeze(T0 + DAY - 1)
    expect((await login()).code).not.toBe(1)
    kit.t.clock.freeze(T0 + DAY)
    expect((await login()).code).toBe(1)
  })

  it('self-exclusion runs calendar months in CST', async () => {
    const res = await post('/api/protection/exclusion', { period: '6m', password: DEMO.password })
    expect(res.data).toMatchObject({ kind: 'self_exclusion', ends_at: Date.UTC(2027, 4, 22, 4, 0, 0) + 500 })
    expect((await login()).msg).toContain('您已选择自我排除，至 2027-05-22 12:00（北京时间）结束')
  })

  it('no API call lifts it early', async () => {
    await post('/api/protection/exclusion', { period: '7d', password: DEMO.password })
    // Every endpoint, with the old session and without one, with what a client could send.
    for (const e of ENDPOINTS) {
      const url = e.path
      for (const tok of [token, '']) {
        if (e.method === 'GET') await get(url, tok)
        else {
          await post(url, { period: '24h', password: DEMO.password, phone: DEMO.phone }, tok)
          await postJson(url, { period: '24h', password: DEMO.password }, tok)
        }
      }
    }
    kit.t.clock.freeze(T0 + 7 * DAY - 1)
    expect((await login()).code).not.toBe(1)
    expect((await get('/api/protection/limits')).code).toBe(10001)
    kit.t.clock.freeze(T0 + 7 * DAY)
    expect((await login()).code).toBe(1)
  })

  it('a later exclusion can only end later, never sooner', () => {
    const repo = new ProtectionRepository(kit.t.app.emu.db)
    const base = { player_id: playerId, kind: 'self_exclusion' as const, period: '5y', started_at: T0 }
    repo.saveExclusion({ ...base, ends_at: T0 + 1000 * DAY })
    repo.saveExclusion({ ...base, kind: 'timeout', period: '24h', ends_at: T0 + DAY })
    expect(repo.exclusion(playerId)).toMatchObject({
      kind: 'self_exclusion',
      period: '5y',
      ends_at: T0 + 1000 * DAY,
    })
  })

  it('withdrawals stay possible without a session, and only while excluded', async () => {
    const bind = await post('/api/api2/wallets/bind', {
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      label: '我的钱包',
      pay_password: DEMO.payPassword,
      is_default: '1',
    })
    expect(bind.code).toBe(1)
    const body = { phone: DEMO.phone, password: DEMO.password, amount: '20', pay_password: DEMO.payPassword }
    const early = await kit.call({ method: 'POST', url: '/api/protection/withdraw', ...form(body) })
    expect(early.msg).toBe('当前未处于暂停游戏或自我排除期，请登录后提现')
    await post('/api/protection/exclusion', { period: '30d', password: DEMO.password })
    const wrong = await kit.call({
      method: 'POST',
      url: '/api/protection/withdraw',
      ...form({ ...body, password: 'nope' }),
    })
    expect(wrong.msg).toBe('登录密码错误，还可尝试 4 次')
    const unknown = await kit.call({
      method: 'POST',
      url: '/api/protection/withdraw',
      ...form({ ...body, phone: '13900000000' }),
    })
    expect(unknown.msg).toBe('登录密码错误')
    const before = kit.balanceMicro(playerId)
    const ok = await kit.call({ method: 'POST', url: '/api/protection/withdraw', ...form(body) })
    expect(ok.code).toBe(1)
    expect(ok.data.amount).toBe('20.00')
    expect(kit.balanceMicro(playerId)).toBe(before - toMicro('20') - toMicro(ok.data.fee))
  })
})

describe('reality check', () => {
  it('is off by default; once set it is due an interval after login, then an interval after each continue', async () => {
    const off = await get('/api/protection/reality-check')
    expect(off.data).toMatchObject({ interval_minutes: 0, next_due_at: null, session_started_at: T0 })
    const set = await post('/api/protection/reality-check', { interval_minutes: '15' })
    expect(set.data).toMatchObject({ interval_minutes: 15, next_due_at: T0 + 15 * 60_000 })
    expect((await post('/api/protection/reality-check', { interval_minutes: '20' })).code).toBe(40000)

    expect((await bet('10')).code).toBe(1)
    kit.t.clock.freeze(T0 + 16 * 60_000)
    const due = await get('/api/protection/reality-check')
    expect(due.data.now).toBe(T0 + 16 * 60_000)
    expect(due.data.stakes).toBe('10.00')
    expect(Number(due.data.net_result)).toBeCloseTo(Number(due.data.payouts) - 10, 6)
    const cont = await post('/api/protection/reality-check/continue')
    expect(cont.data.next_due_at).toBe(T0 + 31 * 60_000)
  })
})

interface FlowRow {
  type: string
  amount: string
  ref: string | null
  created_at: number
}

/** Every USDT fund-flow row, read page by page through the wallet's own endpoint. */
async function allFundFlow(): Promise<FlowRow[]> {
  const out: FlowRow[] = []
  for (let page = 1; ; page++) {
    const res = await get(`${fundFlow.path}?currency=USDT&page=${page}&page_size=100`)
    out.push(...res.data.list)
    if (!res.data.has_more) return out
  }
}

describe('net position', () => {
  it('agrees with an independent sum of the fund flow', async () => {
    const order = await topUp('100')
    await kit.call({ method: 'POST', url: `/__emu/deposits/${order.data.id}/confirm` })
    for (const amount of ['10', '7.5', '3']) expect((await bet(amount)).code).toBe(1)
    const round = (await get('/api/games/round?game=kuaisan')).data
    kit.t.clock.freeze(T0 + round.ms_to_draw + 1000)
    await post('/api/api2/wallets/bind', {
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      label: '钱包',
      pay_password: DEMO.payPassword,
      is_default: '1',
    })
    const walletId = String((await get('/api/api2/wallets')).data.list[0].id)
    const pay = { wallet_id: walletId, pay_password: DEMO.payPassword }
    expect((await post('/api/api2/withdraw', { ...pay, amount: '30' })).code).toBe(1)
    const rejected = await post('/api/api2/withdraw', { ...pay, amount: '12' })
    await kit.call({
      method: 'POST',
      url: `/__emu/withdrawals/${rejected.data.order.id}/reject`,
      payload: {},
    })
    expect((await post('/api/api/exchange', { from: 'USDT', to: 'TRX', amount: '5' })).code).toBe(1)

    // Today's rows (the seed's own rows carry the real time, not the frozen day).
    const todayStart = NEXT_DAY - DAY
    const flow = (await allFundFlow()).filter((r) => r.created_at >= todayStart && r.created_at < NEXT_DAY)
    const sum = (pick: (r: FlowRow) => boolean) =>
      flow.filter(pick).reduce((a, r) => a + toMicro(r.amount), 0)
    const tieRefund = (r: FlowRow) => r.type === 'refund' && (r.ref?.startsWith('round:') ?? false)
    const transferRefund = (r: FlowRow) => r.type === 'refund' && (r.ref?.startsWith('transfer:') ?? false)
    const expected = {
      deposits: sum((r) => r.type === 'topup'),
      withdrawals: -sum(
        (r) =>
          r.type === 'withdrawal' ||
          r.type === 'withdrawal_fee' ||
          (r.type === 'refund' && !tieRefund(r) && !transferRefund(r)),
      ),
      stakes: -sum((r) => r.type === 'bet'),
      payouts: sum((r) => r.type === 'payout' || tieRefund(r)),
      all: sum(() => true),
    }
    expect(expected.deposits).toBe(toMicro('100'))
    expect(expected.withdrawals).toBeGreaterThan(toMicro('30'))
    expect(expected.stakes).toBe(toMicro('20.5'))

    const res = await get('/api/protection/net-position')
    expect(res.code).toBe(1)
    for (const span of ['today', '7d', '30d', 'range']) {
      const s = res.data.spans.find((x: { span: string }) => x.span === span)
      expect(toMicro(s.deposits)).toBe(expected.deposits)
      expect(toMicro(s.withdrawals)).toBe(expected.withdrawals)
      expect(toMicro(s.stakes)).toBe(expected.stakes)
      expect(toMicro(s.payouts)).toBe(expected.payouts)
      expect(toMicro(s.net_result)).toBe(expected.payouts - expected.stakes)
    }
    // Every row of the day is in one column: together they are the day's change of balance.
    const today = res.data.spans[0]
    expect(
      toMicro(today.deposits) - toMicro(today.withdrawals) + toMicro(today.net_result) + toMicro(today.other),
    ).toBe(expected.all)
    // The 10% first-deposit bonus on the 100 top-up, less 15 exchanged away.
    expect(toMicro(today.other)).toBe(toMicro('5'))
    expect(res.data.daily).toHaveLength(30)
    expect(res.data.daily.at(-1)).toMatchObject({ date: '2026-11-22', deposits: today.deposits })
  })

  it('takes a chosen range and refuses a reversed or too long one', async () => {
    const res = await get('/api/protection/net-position?start_date=2026-11-01&end_date=2026-11-22')
    expect(res.data.daily).toHaveLength(22)
    expect(res.data.spans[3]).toMatchObject({
      span: 'range',
      start_date: '2026-11-01',
      end_date: '2026-11-22',
    })
    // Well-formed dates the business rules refuse: a refusal in the envelope, not a 400.
    expect(await get('/api/protection/net-position?start_date=2026-11-23&end_date=2026-11-22')).toMatchObject(
      {
        code: 0,
        msg: '开始日期不能晚于结束日期',
      },
    )
    expect(await get('/api/protection/net-position?start_date=2024-01-01&end_date=2026-11-22')).toMatchObject(
      {
        code: 0,
        msg: '日期区间不能超过 366 天',
      },
    )
  })
})
