import { DEMO } from '@server/test-support/test-app'
import { fundFlow } from '@shared/contract/wallet'
import { toMicro } from '@shared/money'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type GamesKit, gamesKit, T0 } from './games-test-kit'

/**
 * Money words (docs/product.md#fund-flow-types): a transfer bet is a bet, never a top-up, so the
 * deposit limit, the net position and the fund flow tell one story for a player who used every
 * kind of money move.
 */

const FROM = 'THHokCProneknUpbJfWrE2SzhgP11T1J1g' // the demo player's bound bet address
const TO_BIG_SMALL = 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R'
const TO_BANKER_PLAYER_PREFIX = 'banker_player'
const DAY = 86_400_000
/** Monday 2026-11-23 00:00 CST: T0's business day ends here. */
const NEXT_DAY = Date.UTC(2026, 10, 22, 16, 0, 0)

let kit: GamesKit
let token: string

beforeEach(async () => {
  kit = await gamesKit(T0, 0)
  const demo = kit.players[0]
  if (!demo) throw new Error('no demo player')
  token = demo.token
})
afterEach(async () => {
  await kit.t.close()
})

const form = (fields: Record<string, string>) => ({
  payload: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})
const get = (url: string) => kit.call({ method: 'GET', url, headers: { token } })
const post = (url: string, fields: Record<string, string> = {}) => {
  const f = form(fields)
  return kit.call({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, token } })
}
const postJson = (url: string, body: unknown) =>
  kit.call({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    headers: { 'content-type': 'application/json', token },
  })

interface FlowRow {
  type: string
  type_label: string
  amount: string
  ref: string | null
  created_at: number
}

async function allFundFlow(): Promise<FlowRow[]> {
  const out: FlowRow[] = []
  for (let page = 1; ; page++) {
    const res = await get(`${fundFlow.path}?currency=USDT&page=${page}&page_size=100`)
    out.push(...res.data.list)
    if (!res.data.has_more) return out
  }
}

describe('money words', () => {
  it('reconciles deposit limit, net position and fund flow over every kind of money move', async () => {
    // A deposit limit, so its card shows what it counts.
    expect(
      (await post('/api/protection/limits', { kind: 'deposit', period: 'day', amount: '1000' })).code,
    ).toBe(1)
    // Top-up, confirmed.
    const order = await post('/api/usdtpay', { amount: '100' })
    expect(order.code, order.msg).toBe(1)
    await kit.call({ method: 'POST', url: `/__emu/deposits/${order.data.id}/confirm` })
    // App bets on lucky and unlucky in one block (not a pair): one of them wins.
    const round = (await get('/api/games/round?game=qukuai')).data
    const placed = await postJson('/api/games/bet', {
      game: 'qukuai',
      round_id: round.round_id,
      bets: [
        { bet_type: 'lucky', amount: '60' },
        { bet_type: 'unlucky', amount: '60' },
      ],
    })
    expect(placed.code, placed.msg).toBe(1)
    // A transfer bet (units digit 5: big) and a refused one (banker/player digit 7).
    const receiving = (await get('/api/api2/bet/betaddress')).data.receiving as {
      kind: string
      address: string
    }[]
    const toBankerPlayer = receiving.find((r) => r.kind === TO_BANKER_PLAYER_PREFIX)?.address ?? ''
    const transfer = await post('/api/games/transfer', {
      from_address: FROM,
      to_address: TO_BIG_SMALL,
      amount: '15',
    })
    expect(transfer.data.status, transfer.msg).toBe('bet')
    const refused = await post('/api/games/transfer', {
      from_address: FROM,
      to_address: toBankerPlayer,
      amount: '17',
    })
    expect(refused.data.status, refused.msg).toBe('refunded')
    // Draw everything placed.
    kit.t.clock.freeze(T0 + 20_000)
    const bets = (await get('/api/games/bets?page=1&page_size=50')).data.list as { status: string }[]
    expect(bets.filter((b) => b.status === 'pending')).toEqual([])
    expect(bets.some((b) => b.status === 'won')).toBe(true)
    // Rebate on the day's turnover.
    const claim = await post('/api/rebate/claim')
    expect(claim.code, claim.msg).toBe(1)
    // Withdrawals: one paid, one rejected and refunded.
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
    // An exchange.
    expect((await post('/api/api/exchange', { from: 'USDT', to: 'TRX', amount: '5' })).code).toBe(1)

    const flow = (await allFundFlow()).filter(
      (r) => r.created_at >= NEXT_DAY - DAY && r.created_at < NEXT_DAY,
    )
    const sum = (pick: (r: FlowRow) => boolean) =>
      flow.filter(pick).reduce((a, r) => a + toMicro(r.amount), 0)

    // The fund flow: the transfer bet is its own type, never a top-up.
    const transferRows = flow.filter((r) => r.ref?.startsWith('transfer:'))
    expect(transferRows.map((r) => [r.type, r.type_label]).sort()).toEqual([
      ['refund', '退款'],
      ['transfer_bet', '转账投注'],
    ])
    expect(flow.filter((r) => r.type === 'topup').map((r) => r.amount)).toEqual(['100.00'])
    for (const type of ['topup', 'bet', 'payout', 'rebate', 'withdrawal', 'withdrawal_fee', 'exchange']) {
      expect(
        flow.some((r) => r.type === type),
        type,
      ).toBe(true)
    }

    // The deposit limit card and the net position's 充值 say the same as the fund flow's top-ups.
    const limit = (await get('/api/protection/limits')).data.list.find(
      (l: { kind: string; period: string }) => l.kind === 'deposit' && l.period === 'day',
    )
    const net = (await get('/api/protection/net-position')).data.spans[0]
    expect(toMicro(limit.used)).toBe(toMicro('100'))
    expect(toMicro(net.deposits)).toBe(sum((r) => r.type === 'topup'))
    expect(toMicro(net.deposits)).toBe(toMicro(limit.used))
    // The transfer bet: money in as 转账投注 and out as a stake.
    expect(toMicro(net.transfer_bets)).toBe(sum((r) => r.type === 'transfer_bet'))
    expect(toMicro(net.transfer_bets)).toBe(toMicro('15'))
    expect(toMicro(net.stakes)).toBe(-sum((r) => r.type === 'bet'))
    expect(toMicro(net.stakes)).toBe(toMicro('135'))
    // Every row of the day is in one column: together they are the day's change of balance.
    expect(
      toMicro(net.deposits) +
        toMicro(net.transfer_bets) -
        toMicro(net.withdrawals) +
        toMicro(net.net_result) +
        toMicro(net.other),
    ).toBe(sum(() => true))
    expect(kit.t.app.emu.ledger.drift()).toEqual([])
  })

  it('turns transfer bets written as top-ups by an earlier version into transfer bets', async () => {
    const { db } = kit.t.app.emu
    const transfer = await post('/api/games/transfer', {
      from_address: FROM,
      to_address: TO_BIG_SMALL,
      amount: '15',
    })
    expect(transfer.data.status).toBe('bet')
    const ref = `transfer:${transfer.data.id}`
    db.prepare(`UPDATE ledger SET type = 'topup' WHERE ref = ?`).run(ref)
    db.prepare('DELETE FROM schema_migrations WHERE id = 1910').run()
    const { migrate } = await import('@server/db/migrations')
    expect(migrate(db)).toBe(1)
    expect(db.prepare('SELECT type FROM ledger WHERE ref = ?').pluck().all(ref)).toEqual(['transfer_bet'])
  })
})
