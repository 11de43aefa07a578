import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type Bet,
  DRAW_EVENT_GRACE_MS,
  IDLE_CHECK_MS,
  SETTLE_GRACE_MS,
  SettlementWatch,
  STILL_PENDING_RETRY_MS,
  type WatchDeps,
  winText,
} from './settlement-watch'

const T0 = 1_800_000_000_000

function bet(id: number, over: Partial<Bet> = {}): Bet {
  return {
    id,
    game: 'kuaisan',
    game_name: '快三',
    round_id: '202611270001',
    height: 1,
    bet_type: 'big',
    label: '大',
    stake: '10.00',
    odds: '1.96',
    status: 'pending',
    payout: '0.00',
    source: 'app',
    placed_at: T0,
    draw_at: T0 + 10_000,
    settled_at: null,
    result: null,
    ...over,
  }
}

/** A fake server: the bets it holds, which the test settles. */
function setup() {
  const server = new Map<number, Bet>()
  const calls = { pending: 0, recent: 0, balance: 0 }
  const announced: Bet[][] = []
  const deps: WatchDeps = {
    fetchPending: async () => {
      calls.pending++
      return [...server.values()].filter((b) => b.status === 'pending')
    },
    fetchRecent: async () => {
      calls.recent++
      return [...server.values()].reverse()
    },
    refreshBalance: async () => {
      calls.balance++
    },
    announce: (won) => announced.push(won),
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  }
  const watch = new SettlementWatch(deps)
  const settle = (id: number, status: Bet['status'], payout = '0.00') => {
    const b = server.get(id)
    if (b) server.set(id, { ...b, status, payout, settled_at: b.draw_at })
  }
  return { server, calls, announced, watch, settle, deps }
}

describe('SettlementWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(T0)
  })
  afterEach(() => vi.useRealTimers())

  it('asks again just after the earliest pending draw and announces a win placed anywhere', async () => {
    const { server, calls, announced, watch, settle } = setup()
    // A bet placed on another page (or device): only the server knows it.
    server.set(1, bet(1))
    await watch.sync()
    expect(watch.hasPending('kuaisan')).toBe(true)
    expect(calls.balance).toBe(0)
    settle(1, 'won', '19.60')
    await vi.advanceTimersByTimeAsync(10_000 + SETTLE_GRACE_MS - 1)
    expect(calls.pending).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.pending).toBe(2)
    expect(calls.balance).toBe(1)
    expect(announced).toHaveLength(1)
    expect(announced[0]?.map((b) => b.id)).toEqual([1])
    expect(watch.hasPending('kuaisan')).toBe(false)
  })

  it('sets no timer while the push channel is healthy, and asks by its timers again once it is not', async () => {
    const { server, calls, settle, deps } = setup()
    let live = true
    const watched = new SettlementWatch({ ...deps, isLive: () => live })
    server.set(1, bet(1))
    await watched.sync()
    settle(1, 'won', '19.60')
    // Healthy: the draw time passes and nothing is asked (a settlement event would ask).
    await vi.advanceTimersByTimeAsync(10_000 + SETTLE_GRACE_MS + IDLE_CHECK_MS)
    expect(calls.pending).toBe(1)
    // The channel fails: the watch falls back to its timers at once.
    live = false
    watched.reschedule()
    await vi.advanceTimersByTimeAsync(STILL_PENDING_RETRY_MS)
    expect(calls.pending).toBe(2)
    expect(watched.hasPending('kuaisan')).toBe(false)
    // Idle and healthy again: no idle question either.
    live = true
    watched.reschedule()
    await vi.advanceTimersByTimeAsync(IDLE_CHECK_MS * 2)
    expect(calls.pending).toBe(2)
  })

  it('with draws pushed but no player events (proxy mode), asks once at the draw, refreshes the balance, and falls back to a late timer', async () => {
    const { server, calls, announced, settle, deps } = setup()
    const watched = new SettlementWatch({ ...deps, isLive: () => false, drawsLive: () => true })
    server.set(1, bet(1))
    server.set(2, bet(2, { round_id: '202611270002', draw_at: T0 + 70_000 }))
    await watched.sync()
    settle(1, 'won', '19.60')
    // The draw event comes just after the draw time: the app asks then (installSettlementWatch), once.
    await vi.advanceTimersByTimeAsync(10_000 + 300)
    expect(calls.pending).toBe(1)
    await watched.sync()
    expect(calls.pending).toBe(2)
    expect(calls.balance).toBe(1)
    expect(announced.map((w) => w.map((b) => b.id))).toEqual([[1]])
    // No timer of its own at the next draw time: the draw event asks. Only if none comes, later.
    await vi.advanceTimersByTimeAsync(60_000 + SETTLE_GRACE_MS)
    expect(calls.pending).toBe(2)
    await vi.advanceTimersByTimeAsync(DRAW_EVENT_GRACE_MS)
    expect(calls.pending).toBe(3)
  })

  it('refreshes the balance on a loss too, without announcing it', async () => {
    const { server, calls, announced, watch, settle } = setup()
    server.set(1, bet(1))
    await watch.sync()
    settle(1, 'lost')
    await watch.sync()
    expect(calls.balance).toBe(1)
    expect(announced).toEqual([])
  })

  it('keeps asking while a round past its draw time is still pending', async () => {
    const { server, calls, watch, settle } = setup()
    server.set(1, bet(1))
    await watch.sync()
    await vi.advanceTimersByTimeAsync(10_000 + SETTLE_GRACE_MS)
    expect(calls.pending).toBe(2)
    expect(calls.balance).toBe(0)
    settle(1, 'draw', '10.00')
    await vi.advanceTimersByTimeAsync(STILL_PENDING_RETRY_MS)
    expect(calls.pending).toBe(3)
    expect(calls.balance).toBe(1)
  })

  it('follows bets tracked on this device even when a sync in flight missed them', async () => {
    const { server, calls, announced, watch, settle, deps } = setup()
    let release: () => void = () => undefined
    const slow = deps.fetchPending
    deps.fetchPending = () =>
      new Promise((resolve) => {
        release = () => resolve([])
      })
    const inFlight = watch.sync()
    // Placed while the question is on its way: the answer does not list it.
    server.set(2, bet(2))
    watch.track([bet(2)])
    release()
    await inFlight
    deps.fetchPending = slow
    expect(watch.hasPending('kuaisan', '202611270001')).toBe(true)
    settle(2, 'won', '19.60')
    await vi.advanceTimersByTimeAsync(10_000 + SETTLE_GRACE_MS)
    expect(calls.balance).toBe(1)
    expect(announced.flat().map((b) => b.id)).toEqual([2])
  })

  it('tells subscribers which bets settled, and forgets everything on reset', async () => {
    const { server, watch, settle, calls } = setup()
    const seen: number[] = []
    watch.subscribe((settled) => seen.push(...settled.map((b) => b.id)))
    server.set(1, bet(1))
    server.set(2, bet(2, { game: 'qukuai', round_id: '5', draw_at: T0 + 3_000 }))
    await watch.sync()
    settle(2, 'lost')
    await vi.advanceTimersByTimeAsync(3_000 + SETTLE_GRACE_MS)
    expect(seen).toEqual([2])
    watch.reset()
    expect(watch.pending()).toEqual([])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(calls.pending).toBe(2)
  })

  it('survives a failed question and asks again when told to', async () => {
    const { server, calls, watch, deps, settle } = setup()
    server.set(1, bet(1))
    await watch.sync()
    const ok = deps.fetchPending
    deps.fetchPending = () => Promise.reject(new Error('offline'))
    settle(1, 'won', '19.60')
    await watch.sync()
    expect(calls.balance).toBe(0)
    deps.fetchPending = ok
    await watch.sync()
    expect(calls.balance).toBe(1)
  })

  it('asks now and then while nothing is pending (a bet placed on another device), only while in view', async () => {
    const { server, calls, watch, deps } = setup()
    let visible = true
    deps.isVisible = () => visible
    await watch.sync()
    expect(calls.pending).toBe(1)
    server.set(3, bet(3, { draw_at: T0 + IDLE_CHECK_MS + 5_000 }))
    await vi.advanceTimersByTimeAsync(IDLE_CHECK_MS)
    expect(calls.pending).toBe(2)
    expect(watch.hasPending('kuaisan')).toBe(true)
    server.clear()
    watch.reset()
    await watch.sync()
    expect(calls.pending).toBe(3)
    visible = false
    await vi.advanceTimersByTimeAsync(IDLE_CHECK_MS)
    expect(calls.pending).toBe(3)
  })

  it('sums a win for the toast', () => {
    expect(winText([bet(1, { payout: '19.60' }), bet(2, { payout: '0.405' })])).toBe('恭喜中奖！+20.00 USDT')
  })
})
