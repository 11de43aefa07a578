import { EVERYONE, type Publish } from '@server/realtime/event-hub'
import { GAME_CODES, type GameCode } from '@shared/games/config'
import type { FastifyBaseLogger } from 'fastify'
import type { EmuClock } from '../clock'
import type { RoundService } from './round-service'

/** The timer functions the round timer uses; tests hand in their own. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms)
    t.unref()
    return t
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** When the chain is not made yet, looked at again this often. */
const NO_CHAIN_RETRY_MS = 1_000

/**
 * Puts the games' moments on the push channel when they happen, without anybody asking: a timer set
 * from the emulator clock for the next sealing or draw of any game. When it fires it draws what is
 * due (the draws announce themselves, `draw`) and announces each game whose round changed state
 * (`round`: sealed, or the next one open). It is also the ticker's `games` job, so a move of the
 * world clock (which runs the ticker) fires it at once.
 */
export class RoundTimer {
  private handle: unknown = null
  private running = false
  private readonly announced = new Map<GameCode, string>()

  constructor(
    private readonly clock: EmuClock,
    private readonly rounds: RoundService,
    private readonly publish: Publish,
    private readonly log: FastifyBaseLogger,
    private readonly timers: Timers = realTimers,
  ) {}

  start(): void {
    if (this.running) return
    this.running = true
    this.fire()
  }

  stop(): void {
    this.running = false
    if (this.handle !== null) this.timers.clearTimeout(this.handle)
    this.handle = null
  }

  /**
   * Draws what is due, announces what changed and, once started, sets the timer for the next moment.
   * Before `start` (and after `stop`) it still draws, as the ticker's job.
   */
  fire(): void {
    if (this.handle !== null) this.timers.clearTimeout(this.handle)
    this.handle = null
    let wait = NO_CHAIN_RETRY_MS
    try {
      const now = this.clock.now()
      this.rounds.catchUp(now)
      if (this.rounds.chain.get()) {
        let next = Number.POSITIVE_INFINITY
        for (const game of GAME_CODES) {
          const round = this.rounds.roundAt(game, now)
          const key = `${round.round_id}:${round.state}`
          if (this.announced.get(game) !== key) {
            this.announced.set(game, key)
            this.publish('round', round, EVERYONE)
          }
          next = Math.min(next, round.state === 'OPEN' ? round.seal_at : round.draw_at)
        }
        wait = Math.max(1, next - now)
      }
    } catch (err) {
      this.log.error({ err }, 'round timer failed')
    }
    if (this.running) this.handle = this.timers.setTimeout(() => this.fire(), wait)
  }
}
