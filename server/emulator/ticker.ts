import type { FastifyBaseLogger } from 'fastify'
import type { EmuClock } from './clock'

type Job = (now: number) => void

/**
 * Runs the emulator's timed work (draws, settlement, confirmations, approvals) on a short real-time
 * interval and at once whenever the clock is moved, so it happens even when nobody is looking.
 * Each job must be idempotent: it is handed the current time and does whatever is due by then.
 */
export class Ticker {
  private readonly jobs = new Map<string, Job>()
  private timer: NodeJS.Timeout | null = null
  private running = false

  constructor(
    private readonly clock: EmuClock,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 250,
  ) {
    clock.onChange(() => this.tick())
  }

  register(name: string, job: Job): void {
    this.jobs.set(name, job)
  }

  start(): void {
    if (this.timer) return
    this.timer = setInterval(() => this.tick(), this.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  /** Runs every job once for the clock's current time. */
  tick(): void {
    if (this.running) return
    this.running = true
    try {
      const now = this.clock.now()
      for (const [name, job] of this.jobs) {
        try {
          job(now)
        } catch (err) {
          this.log.error({ err, job: name }, 'timed job failed')
        }
      }
    } finally {
      this.running = false
    }
  }
}
