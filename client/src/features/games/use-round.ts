import { isEndpointMissing } from '@client/lib/endpoint-status'
import { callApi } from '@client/lib/http'
import { liveStream } from '@client/lib/live'
import type { DataOf } from '@shared/contract/endpoint'
import { currentRound } from '@shared/contract/games'
import type { GameCode } from '@shared/games/config'
import { useCallback, useEffect, useRef, useState } from 'react'
import { clockOffset, msLeft, nextPollMs } from './countdown'
import { setServerOffset } from './settlement-watch'

export type Round = DataOf<typeof currentRound>
export type RoundRef = Round['next']

/** Where a bet placed now goes: the current round while it is open, else the next one. */
export interface BetTarget {
  round: RoundRef
  msToSeal: number
}

export interface RoundView {
  round: Round | null
  /** Server time minus device time, from the latest fetch. */
  offset: number
  msToSeal: number
  msToDraw: number
  sealed: boolean
  /** Null for the moment between the next round's sealing and the next fetch. */
  target: BetTarget | null
  refresh: () => Promise<void>
  /** The server does not offer the current round (lib/endpoint-status.ts): nothing more is asked. */
  missing: boolean
}

/** Re-renders every `ms` while mounted; the countdown reads the clock on each render. */
function useTick(ms: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), ms)
    return () => window.clearInterval(id)
  }, [ms])
  return now
}

/** With the push channel healthy, a countdown at zero with no `round` event yet asks after this long. */
export const LIVE_DRAW_GRACE_MS = 2_000
/**
 * The same in proxy mode (a stream without player events), whose draws come from the server's reader
 * of the upstream up to about 4 s after the draw time (docs/realtime.md#proxy-mode): every page
 * asking sooner would cost the upstream a call per player.
 */
export const UPSTREAM_DRAW_GRACE_MS = 5_000

/**
 * The current round of a game, counted down on server time. While the push channel is healthy
 * (docs/realtime.md) its `round` events replace the round as they come, and nothing is polled;
 * otherwise the round is fetched again when the draw comes near (every second), when the countdown
 * reaches zero and when the tab comes back into view, so a result shows within a second of its draw
 * and nothing drifts in the background. A `round` event does not call `onDraw`: the page hears the
 * draw itself from the `draw` event.
 */
export function useRound(game: GameCode, onDraw: (round: Round) => void): RoundView {
  const [state, setState] = useState<{ round: Round | null; offset: number }>({ round: null, offset: 0 })
  const onDrawRef = useRef(onDraw)
  onDrawRef.current = onDraw
  // undefined until the first fetch: null then means "no draw yet", which a first draw ends.
  const lastDrawn = useRef<string | null | undefined>(undefined)
  const timer = useRef<number | undefined>(undefined)
  const inFlight = useRef(false)
  const [missing, setMissing] = useState(false)

  const fetchRound = useCallback(async () => {
    if (inFlight.current) return
    inFlight.current = true
    window.clearTimeout(timer.current)
    let wait = 3_000
    try {
      const sentAt = Date.now()
      const round = await callApi(currentRound, { query: { game } })
      const offset = clockOffset(round.server_time, sentAt, Date.now())
      setServerOffset(offset)
      setState({ round, offset })
      const drawn = round.previous?.round_id ?? null
      if (isNewDraw(lastDrawn.current, drawn)) onDrawRef.current(round)
      lastDrawn.current = drawn
      wait = nextPollMs(round.ms_to_draw)
    } catch (err) {
      // The HTTP client showed why; the next poll tries again, unless the endpoint is not there.
      if (isEndpointMissing(err)) {
        setMissing(true)
        wait = -1
      }
    } finally {
      inFlight.current = false
      if (document.visibilityState === 'visible' && wait >= 0 && !liveStream.healthy)
        timer.current = window.setTimeout(fetchRound, wait)
    }
  }, [game])

  // The push channel: each `round` of this game replaces the round; a snapshot asks again; losing
  // the channel starts the polling again, getting it back stops it.
  useEffect(() => {
    const offRound = liveStream.on('round', (round) => {
      if (round.game !== game) return
      setState((s) => ({ round, offset: s.offset }))
      lastDrawn.current = round.previous?.round_id ?? null
    })
    const offSnapshot = liveStream.on('snapshot', () => void fetchRound())
    const offStatus = liveStream.onStatus((status) => {
      if (status === 'live') window.clearTimeout(timer.current)
      else if (status !== 'connecting' && document.visibilityState === 'visible') void fetchRound()
    })
    return () => {
      offRound()
      offSnapshot()
      offStatus()
    }
  }, [game, fetchRound])

  useEffect(() => {
    lastDrawn.current = undefined
    void fetchRound()
    const onVisible = () => {
      // Shown again: a stream reconnecting brings what was missed (replay, else a snapshot that
      // asks); only without one is the round asked for here. Asking as well would race the replay
      // and, when first, take its draw for news and read the results again.
      // Looked at once every listener of the event has run (the stream's own included).
      if (document.visibilityState === 'visible')
        window.setTimeout(() => {
          const status = liveStream.status
          if (document.visibilityState === 'visible' && status !== 'connecting' && status !== 'live')
            void fetchRound()
        }, 0)
      else window.clearTimeout(timer.current)
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      document.removeEventListener('visibilitychange', onVisible)
      window.clearTimeout(timer.current)
    }
  }, [fetchRound])

  const now = useTick(250)
  const { round, offset } = state
  const msToSeal = round ? msLeft(round.seal_at, now, offset) : 0
  const msToDraw = round ? msLeft(round.draw_at, now, offset) : 0
  const reachedDraw = round !== null && msToDraw === 0

  // The countdown reached zero: ask at once rather than wait for the poll; with the push channel
  // healthy, only if its `round` event has not come after a grace period.
  useEffect(() => {
    // A hidden page asks nothing: shown again, it reads the round (or the stream brings it).
    if (!reachedDraw || document.visibilityState !== 'visible') return
    if (!liveStream.healthy) {
      void fetchRound()
      return
    }
    const grace = liveStream.playerEvents ? LIVE_DRAW_GRACE_MS : UPSTREAM_DRAW_GRACE_MS
    const id = window.setTimeout(() => void fetchRound(), grace)
    return () => window.clearTimeout(id)
  }, [reachedDraw, fetchRound])

  const sealed = round !== null && (round.state !== 'OPEN' || msToSeal === 0)
  return {
    round,
    offset,
    msToSeal,
    msToDraw,
    sealed,
    target: round ? betTarget(round, sealed, now, offset) : null,
    refresh: fetchRound,
    missing: missing && round === null,
  }
}

/**
 * Whether a fetch brought a draw the page has not shown: not on the first fetch (what is drawn
 * then is simply shown), but on every later change, the very first draw of a game included.
 */
export function isNewDraw(seen: string | null | undefined, drawn: string | null): boolean {
  return seen !== undefined && drawn !== null && drawn !== seen
}

/** The round a bet placed at device time `now` goes to, and how long it stays open. */
export function betTarget(round: Round, sealed: boolean, now: number, offset: number): BetTarget | null {
  const candidate: RoundRef = sealed ? round.next : round
  const msToSeal = msLeft(candidate.seal_at, now, offset)
  return msToSeal > 0 ? { round: candidate, msToSeal } : null
}

/** The time a player needs between opening the bet sheet and confirming it. */
export const MIN_CONFIRM_MS = 3_000

/**
 * The rounds a bet may go to, earliest first: the current one, the next, and for hash games
 * (rounds numbered by their height) the one after that, which the server also takes. The block
 * game's rounds last one block, so its next round can be under {@link MIN_CONFIRM_MS} from sealing.
 */
export function roundsAhead(round: Round): RoundRef[] {
  const current: RoundRef = {
    game: round.game,
    round_id: round.round_id,
    height: round.height,
    seal_at: round.seal_at,
    draw_at: round.draw_at,
  }
  const out: RoundRef[] = [current, round.next]
  const next = round.next
  const byHeight = round.round_id === String(round.height) && next.round_id === String(next.height)
  if (byHeight && next.height > round.height) {
    const blocks = next.height - round.height
    const step = next.draw_at - round.draw_at
    out.push({
      game: next.game,
      round_id: String(next.height + blocks),
      height: next.height + blocks,
      seal_at: next.seal_at + step,
      draw_at: next.draw_at + step,
    })
  }
  return out
}

/**
 * The round the bet sheet opens on: the earliest one still open with at least `minMs` before its
 * sealing, so a confirmation a few seconds later still finds it open; null when none is known
 * (the page fetches the round again first).
 */
export function sheetTarget(
  round: Round,
  now: number,
  offset: number,
  minMs = MIN_CONFIRM_MS,
): BetTarget | null {
  for (const r of roundsAhead(round)) {
    const msToSeal = msLeft(r.seal_at, now, offset)
    if (msToSeal >= minMs) return { round: r, msToSeal }
  }
  return null
}
