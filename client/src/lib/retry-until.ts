/**
 * Runs a task again until it reports success: after each failure it waits the next of `delays`
 * (the last one repeats), and it runs at once when `onReconnect` signals that the server answers
 * again. `stop()` ends it. For start-up, whose first calls may fail while the device is offline.
 */

export interface RetryTimers {
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (id: unknown) => void
}

export interface RetryOptions {
  /** Waits between attempts, in ms; the last one repeats. */
  delays: readonly number[]
  /** Subscribes to "the server answers again"; returns the unsubscribe. */
  onReconnect: (listener: () => void) => () => void
  timers?: RetryTimers
}

export interface Retrying {
  stop: () => void
  /** Whether the task has succeeded (or the retrying was stopped). */
  readonly done: boolean
}

const realTimers: RetryTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
}

/** `task` resolves true when done; false or a rejection means try again later. */
export function retryUntil(task: () => Promise<boolean>, options: RetryOptions): Retrying {
  const timers = options.timers ?? realTimers
  let done = false
  let running = false
  // The server answered again while an attempt was on its way: try once more at once if it fails.
  let again = false
  let attempt = 0
  let timer: unknown
  const unsubscribe = options.onReconnect(() => void run())

  const finish = () => {
    done = true
    timers.clearTimeout(timer)
    unsubscribe()
  }

  const schedule = () => {
    const delays = options.delays
    const ms = delays[Math.min(attempt, delays.length - 1)] ?? 5_000
    attempt++
    timers.clearTimeout(timer)
    timer = timers.setTimeout(() => void run(), ms)
  }

  async function run(): Promise<void> {
    if (done) return
    if (running) {
      again = true
      return
    }
    running = true
    again = false
    timers.clearTimeout(timer)
    let ok = false
    try {
      ok = await task()
    } catch {
      ok = false
    } finally {
      running = false
    }
    if (done) return
    if (ok) finish()
    else if (again) void run()
    else schedule()
  }

  schedule()
  return {
    stop: finish,
    get done() {
      return done
    },
  }
}
