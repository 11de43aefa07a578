import { fund, gamesKit, T0 } from '@server/emulator/games/games-test-kit'
import { listenOnLoopback } from '@server/test-support/listen'
import { openStream, type TestStream } from '@server/test-support/stream-client'
import { CODE } from '@shared/envelope'
import { pricedBets } from '@shared/games/odds'
import { settlerFor } from '@shared/games/outcome'
import { roundById } from '@shared/games/rounds'
import { afterEach, describe, expect, it } from 'vitest'

/**
 * The push channel over a real socket (docs/realtime.md): who may open it, what the domains put on
 * it, and what a reconnecting client gets. The clock is the emulator's, moved by the test.
 */

const streams: TestStream[] = []
const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const s of streams.splice(0)) s.close()
  for (const c of closers.splice(0)) await c()
})

async function setUp(env: Record<string, string> = {}) {
  const kit = await gamesKit(T0, 0, env)
  kit.games.rounds.ensureChain()
  const base = await listenOnLoopback(kit.t.app)
  closers.push(() => kit.t.close())
  const open = async (token: string, lastId?: string) => {
    const s = await openStream(base, token, lastId)
    streams.push(s)
    return s
  }
  return { kit, base, open }
}

/** A bet type of the block game that wins in this round, so the test can count on a payout. */
function winningType(kit: Awaited<ReturnType<typeof setUp>>['kit'], roundId: string): string {
  const config = kit.games.config
  const round = roundById('qukuai', roundId, config)
  if (!round) throw new Error('no round')
  const { outcome } = kit.games.rounds.outcomeOf(round)
  const type = pricedBets('qukuai', config).find(
    (b) => settlerFor('qukuai', b.type, config)(outcome) === 'won',
  )
  if (!type) throw new Error('no winning type')
  return type.type
}

describe('GET /api/stream', () => {
  it('answers the session-lost envelope without a session, as every call does', async () => {
    const { kit, base } = await setUp()
    const res = await kit.t.app.inject({ method: 'GET', url: '/api/stream' })
    expect(res.json().code).toBe(CODE.sessionExpired)
    const bad = await fetch(`${base}/api/stream`, { headers: { token: 'nope', accept: 'text/event-stream' } })
    expect(bad.headers.get('content-type')).toContain('application/json')
    expect((await bad.json()).code).toBe(CODE.sessionExpired)
    // Never from the URL.
    const token = kit.players[0]?.token ?? ''
    const inUrl = await kit.t.app.inject({ method: 'GET', url: `/api/stream?token=${token}` })
    expect(inUrl.json().code).toBe(CODE.sessionExpired)
  })

  it('opens with a snapshot carrying an id, then sends the player’s balance changes', async () => {
    const { kit, open } = await setUp()
    const me = kit.players[0]
    if (!me) throw new Error('no player')
    const s = await open(me.token)
    expect(s.status).toBe(200)
    expect(s.contentType).toContain('text/event-stream')
    const snap = await s.next((e) => e.event === 'snapshot')
    expect(snap.data).toEqual({ reason: 'new', server_time: T0, player_events: true })
    expect(snap.id).toMatch(/^[0-9a-z]+-\d+$/)
    const round = await kit.call({ method: 'GET', url: '/api/games/round?game=qukuai' })
    const type = winningType(kit, round.data.round_id)
    const bet = await kit.call({
      method: 'POST',
      url: '/api/games/bet',
      headers: { token: me.token },
      payload: { game: 'qukuai', round_id: round.data.round_id, bets: [{ bet_type: type, amount: '10' }] },
    })
    expect(bet.code, bet.msg).toBe(1)
    const debit = await s.next((e) => e.event === 'balance' && e.data.type === 'bet')
    expect(debit.data).toMatchObject({ currency: 'USDT', change: '-10.00', balance: bet.data.balance })
  })

  it('sends the draw at its time, and the player’s settlement with its payout and the balance after it', async () => {
    const { kit, open } = await setUp()
    const me = kit.players[0]
    const other = kit.players[1]
    if (!me || !other) throw new Error('no player')
    const mine = await open(me.token)
    const theirs = await open(other.token)
    await mine.next((e) => e.event === 'snapshot')
    const round = await kit.call({ method: 'GET', url: '/api/games/round?game=qukuai' })
    const roundId: string = round.data.round_id
    const type = winningType(kit, roundId)
    const bet = await kit.call({
      method: 'POST',
      url: '/api/games/bet',
      headers: { token: me.token },
      payload: { game: 'qukuai', round_id: roundId, bets: [{ bet_type: type, amount: '10' }] },
    })
    expect(bet.code, bet.msg).toBe(1)
    // The round seals, then its draw time comes: nobody asks the server anything meanwhile.
    kit.t.clock.advance(round.data.ms_to_seal)
    const sealed = await mine.next(
      (e) => e.event === 'round' && e.data.game === 'qukuai' && e.data.state === 'SEALED',
    )
    expect(sealed.data.round_id).toBe(roundId)
    kit.t.clock.advance(round.data.ms_to_draw - round.data.ms_to_seal)
    const draw = await mine.next((e) => e.event === 'draw' && e.data.round_id === roundId)
    expect(draw.data).toMatchObject({ game: 'qukuai', draw_at: round.data.draw_at })
    const settlement = await mine.next((e) => e.event === 'settlement')
    const history = await kit.call({
      method: 'GET',
      url: '/api/games/bets?game=qukuai',
      headers: { token: me.token },
    })
    const settled = history.data.list[0]
    expect(settled.status).toBe('won')
    expect(settlement.data).toEqual({
      game: 'qukuai',
      round_id: roundId,
      bet_count: 1,
      stake: '10.00',
      payout: settled.payout,
      refund: '0.00',
      won: 1,
    })
    const credit = await mine.next((e) => e.event === 'balance' && e.data.type === 'payout')
    expect(credit.data.change).toBe(settled.payout)
    const opened = await mine.next(
      (e) =>
        e.event === 'round' &&
        e.data.game === 'qukuai' &&
        e.data.state === 'OPEN' &&
        e.data.round_id !== roundId,
    )
    expect(opened.data.previous.round_id).toBe(roundId)
    // Everybody hears the draw; nobody else hears this player's money.
    await theirs.next((e) => e.event === 'draw' && e.data.round_id === roundId)
    expect(theirs.events.filter((e) => ['settlement', 'balance'].includes(e.event))).toEqual([])
    // The draw comes before the round that follows it, and ids only go up.
    const order = mine.events.map((e) => e.event)
    expect(order.indexOf('draw')).toBeLessThan(order.lastIndexOf('round'))
    const seqs = mine.events.map((e) => Number(e.id?.split('-')[1]))
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs)
  })

  it('gives a reconnecting client what it missed, or a snapshot when that is no longer kept', async () => {
    const { kit, open } = await setUp({ STREAM_REPLAY_SIZE: '3' })
    const me = kit.players[0]
    if (!me) throw new Error('no player')
    const first = await open(me.token)
    const snap = await first.next((e) => e.event === 'snapshot')
    first.close()
    const credit = (units: number) => fund(kit, me.playerId, units * 1_000_000)
    credit(1)
    const again = await open(me.token, snap.id ?? '')
    const missed = await again.next((e) => e.event === 'balance')
    expect(missed.data.change).toBe('1.00')
    expect(again.events.some((e) => e.event === 'snapshot')).toBe(false)
    again.close()
    // Four more events in a log of three: the first after the one it saw is no longer kept.
    for (const units of [2, 3, 4, 5]) credit(units)
    const late = await open(me.token, missed.id ?? '')
    expect((await late.next((e) => e.event === 'snapshot')).data.reason).toBe('gap')
    // An id from another run of the server is a gap too.
    const stranger = await open(me.token, 'zzzz-1')
    expect((await stranger.next((e) => e.event === 'snapshot')).data.reason).toBe('gap')
  })

  it('ends with session_end when its own session is revoked, and only then', async () => {
    const { kit, open } = await setUp()
    const a = await kit.t.login()
    const b = await kit.t.login()
    const sa = await open(a.token)
    const sb = await open(b.token)
    await sa.next((e) => e.event === 'snapshot')
    await sb.next((e) => e.event === 'snapshot')
    const out = await kit.call({ method: 'POST', url: '/api/users/logout', headers: { token: a.token } })
    expect(out.code, out.msg).toBe(1)
    expect((await sa.next((e) => e.event === 'session_end')).data).toEqual({ reason: 'revoked' })
    await sa.ended
    expect(sb.events.some((e) => e.event === 'session_end')).toBe(false)
  })

  it('ends with session_end (expired) once the clock passes the session’s lifetime', async () => {
    const { kit, open } = await setUp({ SESSION_TTL_MS: '60000' })
    const me = await kit.t.login()
    const s = await open(me.token)
    await s.next((e) => e.event === 'snapshot')
    kit.t.clock.advance(61_000)
    expect((await s.next((e) => e.event === 'session_end')).data).toEqual({ reason: 'expired' })
    await s.ended
  })

  it('sends a top-up’s confirmation and the credit it brings', async () => {
    const { kit, open } = await setUp()
    const me = kit.players[0]
    if (!me) throw new Error('no player')
    const s = await open(me.token)
    await s.next((e) => e.event === 'snapshot')
    const order = await kit.call({
      method: 'POST',
      url: '/api/usdtpay',
      headers: { token: me.token, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'amount=25',
    })
    expect(order.code, order.msg).toBe(1)
    const confirmed = await kit.call({ method: 'POST', url: `/__emu/deposits/${order.data.id}/confirm` })
    expect(confirmed.code, confirmed.msg).toBe(1)
    const event = await s.next((e) => e.event === 'deposit')
    expect(event.data).toMatchObject({ id: order.data.id, status: 'confirmed', amount: '25.00' })
    expect((await s.next((e) => e.event === 'balance' && e.data.type === 'topup')).data.change).toBe('25.00')
  })

  it('announces an announcement when its publishing time comes', async () => {
    const { kit } = await setUp()
    const { db, content, events } = kit.t.app.emu
    const seen: string[] = []
    events.subscribe((e) => {
      if (e.type === 'announcement') seen.push(e.data.title)
    })
    const now = kit.t.clock.now()
    content.announceDue(now)
    db.prepare('INSERT INTO announcements (title, content, pinned, published_at) VALUES (?, ?, 0, ?)').run(
      '新公告',
      '内容',
      now + 60_000,
    )
    content.announceDue(now + 30_000)
    expect(seen).toEqual([])
    content.announceDue(now + 60_000)
    content.announceDue(now + 90_000)
    expect(seen).toEqual(['新公告'])
  })
})
