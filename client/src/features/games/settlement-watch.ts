import { connectivity } from '@client/lib/connectivity'
import { callApi } from '@client/lib/http'
import { liveStream } from '@client/lib/live'
import { refreshBalance } from '@client/lib/session-actions'
import { session } from '@client/lib/session-store'
import { showToast } from '@client/lib/toast'
import type { DataOf } from '@shared/contract/endpoint'
import type { betHistory } from '@shared/contract/games'
import { formatMicro, toMicro } from '@shared/money'
import { playSound } from './sound'

/**
 * Follows the player's unsettled bets, whatever page or device placed them, until the server has
 * settled them (docs/client.md, "Balance"). It asks the server for the player's pending bets, and
 * again a moment after the earliest of their rounds is drawn; a bet that has left the pending list
 * has been settled: the balance is refreshed, and a win is announced with a toast and the win
 * sound on whatever page the player is. It also asks when a game page sees a draw of a round the
 * player has bets in, when the tab comes back into view and when the server answers again after
 * being unreachable. While the push channel is healthy (docs/realtime.md) it sets no timer: it asks
 * when a `settlement` or a bet's `balance` event arrives, and after a `snapshot`. A channel without
 * the player's events (proxy mode) brings draws only: it asks at the `draw` of a round with bets
 * pending, and refreshes the balance itself when bets settle.
 */

export type Bet = DataOf<typeof betHistory>['list'][number]
/** A bet as placing it answers (no result yet). */
export type PlacedBet = Omit<Bet, 'result'>

export interface WatchDeps {
  /** The player's pending bets (every game). */
  fetchPending: () => Promise<Bet[]>
  /** The player's latest bets, settled ones included, newest first. */
  fetchRecent: () => Promise<Bet[]>
  refreshBalance: () => Promise<void>
  /** Settled bets that won (or drew): the toast and sound. */
  announce: (won: Bet[]) => void
  /** The server's clock, as best the device knows it. */
  now: () => number
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (id: unknown) => void
  /** Whether the page is in view; the idle question is skipped while it is not (showing it asks). */
  isVisible?: () => boolean
  /** Whether the push channel is healthy and carries the player's events: then events, not timers, say when to ask. */
  isLive?: () => boolean
  /**
   * Whether the push channel is healthy but carries only rounds and draws (proxy mode): a round's
   * `draw` says when to ask, and the timer for it is only the fallback should no draw come.
   */
  drawsLive?: () => boolean
}

/** How long after a round's draw time its bets are asked about (the server settles at the draw). */
export const SETTLE_GRACE_MS = 800
/** A round past its draw time whose bets are still pending is asked about again this often. */
export const STILL_PENDING_RETRY_MS = 2_000
/** Never sooner than this after the last question. */
export const MIN_CHECK_MS = 500
/** With no pending bet known, asked again this often while the page is in view (a bet placed on another device). */
export const IDLE_CHECK_MS = 30_000
/** With draws pushed (proxy mode), a round's bets are asked about by its `draw` event, or this long after its draw time without one. */
export const DRAW_EVENT_GRACE_MS = 5_000

type Listener = (settled: Bet[]) => void

export class SettlementWatch {
  /** Pending bets as last known, by id; null before the first answer. */
  private known: Map<number, Bet> | null = null
  /** Bets this device placed, with the order they were tracked in (a sync must not drop them). */
  private tracked = new Map<number, { bet: Bet; seq: number }>()
  private seq = 0
  private timer: unknown
  private running: Promise<void> | null = null
  private again = false
  private readonly listeners = new Set<Listener>()

  constructor(private readonly deps: WatchDeps) {}

  /** Called with the bets each sync found settled. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** The pending bets as last known. */
  pending(): Bet[] {
    return [...(this.known?.values() ?? [])]
  }

  /** Whether the player has a pending bet in this game (and round, when given). */
  hasPending(game: string, roundId?: string): boolean {
    return this.pending().some((b) => b.game === game && (roundId === undefined || b.round_id === roundId))
  }

  /** Bets just placed on this device: followed until settled. */
  track(placed: readonly PlacedBet[]): void {
    this.known ??= new Map()
    for (const p of placed) {
      if (p.status !== 'pending') continue
      const bet: Bet = { ...p, result: null }
      this.seq++
      this.tracked.set(bet.id, { bet, seq: this.seq })
      this.known.set(bet.id, bet)
    }
    this.schedule()
  }

  /** Forgets everything (logout, another player). */
  reset(): void {
    this.deps.clearTimeout(this.timer)
    this.timer = undefined
    this.known = null
    this.tracked.clear()
  }

  /** Asks the server now; calls made while one runs are folded into one more run after it. */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      try {
        do {
          this.again = false
          await this.syncOnce()
        } while (this.again)
      } finally {
        this.running = null
      }
    })()
    return this.running
  }

  private async syncOnce(): Promise<void> {
    const seqAtStart = this.seq
    let pending: Bet[]
    try {
      pending = await this.deps.fetchPending()
    } catch {
      // Offline or refused: asked again on the next draw, view or reconnect, or (bets known to be
      // past their draw) after a short wait.
      this.schedule()
      return
    }
    const pendingIds = new Set(pending.map((b) => b.id))
    const before = this.known
    const gone = before ? [...before.values()].filter((b) => !pendingIds.has(b.id)) : []
    const next = new Map(pending.map((b) => [b.id, b]))
    // Bets placed while this question was on its way are not in its answer yet.
    for (const [id, t] of this.tracked) {
      if (pendingIds.has(id)) continue
      if (t.seq > seqAtStart) next.set(id, t.bet)
      else this.tracked.delete(id)
    }
    this.known = next
    const goneNow = gone.filter((b) => !next.has(b.id))
    if (goneNow.length > 0) {
      let settled: Bet[] = []
      try {
        const recent = new Map((await this.deps.fetchRecent()).map((b) => [b.id, b]))
        settled = goneNow.flatMap((b) => {
          const s = recent.get(b.id)
          return s && s.status !== 'pending' ? [s] : []
        })
      } catch {
        // The balance below still follows.
      }
      await this.deps.refreshBalance().catch(() => undefined)
      if (settled.length > 0) {
        for (const listener of this.listeners) listener(settled)
        const won = settled.filter((b) => b.status === 'won')
        if (won.length > 0) this.deps.announce(won)
      }
    }
    this.schedule()
  }

  /** Sets the timers again (the push channel came or went). */
  reschedule(): void {
    this.schedule()
  }

  /** The next question: a moment after the earliest pending round's draw (none while the push channel is healthy). */
  private schedule(): void {
    this.deps.clearTimeout(this.timer)
    this.timer = undefined
    const known = this.pending()
    if (this.known === null || this.deps.isLive?.()) return
    if (known.length === 0) {
      this.timer = this.deps.setTimeout(() => {
        if (this.deps.isVisible?.() ?? true) void this.sync()
      }, IDLE_CHECK_MS)
      return
    }
    const earliest = Math.min(...known.map((b) => b.draw_at))
    const due = earliest + SETTLE_GRACE_MS - this.deps.now()
    // Draws pushed: the draw event asks at its time; this timer only in case it never comes.
    const ms = due > 0 ? due + (this.deps.drawsLive?.() ? DRAW_EVENT_GRACE_MS : 0) : STILL_PENDING_RETRY_MS
    this.timer = this.deps.setTimeout(() => void this.sync(), Math.max(MIN_CHECK_MS, ms))
  }
}

/** Server time minus device time, as the game pages last measured it (use-round). */
let serverOffset = 0
export function setServerOffset(offset: number): void {
  serverOffset = offset
}

const contract = () => import('@shared/contract/games')

/** What a win adds up to, for the toast. */
export function winText(won: readonly Bet[]): string {
  const total = won.reduce((sum, b) => sum + toMicro(b.payout), 0)
  return `恭喜中奖！+${formatMicro(total, 2)} USDT`
}

/** The app's one watch. */
export const settlementWatch = new SettlementWatch({
  fetchPending: async () => {
    const { betHistory } = await contract()
    const res = await callApi(
      betHistory,
      { query: { status: 'pending', page: 1, page_size: 100 } },
      { quiet: true },
    )
    return res.list
  },
  fetchRecent: async () => {
    const { betHistory } = await contract()
    return (await callApi(betHistory, { query: { page: 1, page_size: 100 } }, { quiet: true })).list
  },
  // A logout while a question was on its way: nothing to refresh (and no trip to /login). While the
  // push channel is healthy with the player's events its balance events have brought the balance already.
  refreshBalance: () =>
    session.get().isLogin && !liveStream.playerHealthy ? refreshBalance() : Promise.resolve(),
  announce: (won) => {
    if (!session.get().isLogin) return
    if (session.get().soundOn) playSound('win')
    showToast(winText(won), 'success')
  },
  now: () => Date.now() + serverOffset,
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (id) => window.clearTimeout(id as number),
  isVisible: () => document.visibilityState === 'visible',
  isLive: () => liveStream.playerHealthy,
  drawsLive: () => liveStream.healthy && !liveStream.playerEvents,
})

let installed = false

/**
 * Starts the watch for the logged-in player and keeps it to the session: it restarts for another
 * player, stops at logout, and asks again when the tab is shown or the server answers again.
 */
export function installSettlementWatch(): void {
  if (installed) return
  installed = true
  let player = session.get().isLogin ? session.get().playerId : null
  const syncIfLoggedIn = () => {
    if (session.get().isLogin && session.get().playerId !== null) void settlementWatch.sync()
  }
  session.subscribe(() => {
    const now = session.get().isLogin ? session.get().playerId : null
    if (now === player) return
    player = now
    settlementWatch.reset()
    syncIfLoggedIn()
  })
  connectivity.onReconnect(syncIfLoggedIn)
  // The push channel: a settlement, a bet placed (on any device) or a snapshot is the time to ask.
  liveStream.on('settlement', syncIfLoggedIn)
  liveStream.on('balance', (b) => {
    if (b.type === 'bet' || b.type === 'transfer_bet') syncIfLoggedIn()
  })
  liveStream.on('snapshot', syncIfLoggedIn)
  // A stream without the player's events (proxy mode): a draw of a round the player has bets in is
  // the time to ask, whatever page is open (docs/realtime.md#proxy-mode).
  liveStream.on('draw', (draw) => {
    if (!liveStream.playerEvents && settlementWatch.hasPending(draw.game, draw.round_id)) syncIfLoggedIn()
  })
  liveStream.onStatus(() => settlementWatch.reschedule())
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') syncIfLoggedIn()
  })
  syncIfLoggedIn()
}
