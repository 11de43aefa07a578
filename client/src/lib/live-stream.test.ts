import { describe, expect, it } from 'vitest'
import { BACKOFF_MAX_MS, backoffMs, LiveStream, type LiveStreamDeps, SILENCE_MS } from './live-stream'

/** A server the test writes to: each fetch gets a stream the test feeds, or a failure. */
class FakeServer {
  readonly calls: { headers: Record<string, string>; signal: AbortSignal }[] = []
  private writers: ReadableStreamDefaultController<Uint8Array>[] = []
  next: 'stream' | 'fail' | { status: number; body: string } = 'stream'

  fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const signal = init.signal as AbortSignal
    this.calls.push({ headers: init.headers as Record<string, string>, signal })
    if (this.next === 'fail') throw new TypeError('Failed to fetch')
    if (typeof this.next === 'object')
      return new Response(this.next.body, {
        status: this.next.status,
        headers: { 'content-type': 'application/json' },
      })
    let controller!: ReadableStreamDefaultController<Uint8Array>
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c
      },
    })
    signal.addEventListener('abort', () => {
      try {
        controller.error(new DOMException('aborted', 'AbortError'))
      } catch {
        // already closed
      }
    })
    this.writers.push(controller)
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
  }

  send(text: string): void {
    this.writers.at(-1)?.enqueue(new TextEncoder().encode(text))
  }

  end(): void {
    this.writers.at(-1)?.close()
  }
}

class FakeTimers {
  private id = 0
  readonly pending = new Map<number, { fn: () => void; ms: number }>()
  setTimeout = (fn: () => void, ms: number): unknown => {
    this.id++
    this.pending.set(this.id, { fn, ms })
    return this.id
  }
  clearTimeout = (handle: unknown): void => {
    this.pending.delete(handle as number)
  }
  /** Fires the timers set for exactly `ms`. */
  fire(ms: number): void {
    for (const [id, t] of [...this.pending]) {
      if (t.ms !== ms) continue
      this.pending.delete(id)
      t.fn()
    }
  }
  waits(): number[] {
    return [...this.pending.values()].map((t) => t.ms)
  }
}

const settle = () => new Promise((r) => setTimeout(r, 0))
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await settle()
  expect(check()).toBe(true)
}

function setUp(random = () => 0.5) {
  const server = new FakeServer()
  const timers = new FakeTimers()
  let visible = true
  const ended: (string | undefined)[] = []
  const deps: LiveStreamDeps = {
    fetch: server.fetch,
    url: () => '/api/stream',
    token: () => 'tok',
    random,
    setTimeout: timers.setTimeout,
    clearTimeout: timers.clearTimeout,
    isVisible: () => visible,
    onSessionEnd: (m) => ended.push(m),
  }
  const stream = new LiveStream(deps)
  const statuses: string[] = []
  stream.onStatus((s) => statuses.push(s))
  return {
    server,
    timers,
    stream,
    statuses,
    ended,
    setVisible: (v: boolean) => {
      visible = v
      stream.visibilityChanged()
    },
  }
}

describe('backoffMs', () => {
  it('doubles from 1 s up to 30 s, each wait a random 50–100 % of it', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000])
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0.999_999))).toEqual([1000, 2000, 4000, 8000])
    expect(backoffMs(20, () => 0.999_999)).toBe(BACKOFF_MAX_MS)
    expect(backoffMs(20, () => 0)).toBe(BACKOFF_MAX_MS / 2)
  })
})

describe('LiveStream', () => {
  it('sends the token header, is live from its first event and hands each event to its listeners', async () => {
    const { server, stream, statuses } = setUp()
    const draws: unknown[] = []
    stream.on('draw', (d) => draws.push(d))
    stream.setWanted(true)
    await until(() => server.calls.length === 1)
    expect(server.calls[0]?.headers).toMatchObject({ token: 'tok', accept: 'text/event-stream' })
    expect(server.calls[0]?.headers['last-event-id']).toBeUndefined()
    expect(stream.healthy).toBe(false)
    server.send('id: r-1\nevent: snapshot\ndata: {"reason":"new","server_time":1}\n\n')
    await until(() => stream.healthy)
    server.send(': heartbeat\n\nid: r-2\nevent: draw\ndata: {"round_id":"7"}\n\n')
    await until(() => draws.length === 1)
    expect(draws).toEqual([{ round_id: '7' }])
    expect(stream.lastEventId).toBe('r-2')
    expect(statuses).toEqual(['connecting', 'live'])
  })

  it('tells from the snapshot whether the player’s own events come (not in proxy mode)', async () => {
    const { server, stream } = setUp()
    stream.setWanted(true)
    await until(() => server.calls.length === 1)
    expect(stream.playerEvents).toBe(true)
    let seen: boolean | null = null
    // Known by the time anyone hears the stream is live.
    stream.onStatus((status) => {
      if (status === 'live') seen = stream.playerHealthy
    })
    server.send('id: r-1\nevent: snapshot\ndata: {"reason":"new","server_time":1,"player_events":false}\n\n')
    await until(() => stream.healthy)
    expect(seen).toBe(false)
    expect(stream.playerEvents).toBe(false)
    expect(stream.playerHealthy).toBe(false)
    // A snapshot without the field (an older server) carries them.
    server.send('id: r-2\nevent: snapshot\ndata: {"reason":"gap","server_time":2}\n\n')
    await until(() => stream.playerEvents)
    expect(stream.playerHealthy).toBe(true)
  })

  it('after a failure waits the backoff (jittered by its random), then reconnects with Last-Event-ID', async () => {
    const { server, timers, stream, statuses } = setUp(() => 0)
    stream.setWanted(true)
    await until(() => server.calls.length === 1)
    server.send('id: r-5\nevent: snapshot\ndata: {}\n\n')
    await until(() => stream.healthy)
    server.next = 'fail'
    server.end()
    await until(() => stream.status === 'retrying')
    expect(timers.waits()).toEqual([500])
    timers.fire(500)
    await until(() => stream.status === 'retrying' && server.calls.length === 2)
    // Each failure in a row waits twice as long.
    expect(timers.waits()).toEqual([1000])
    server.next = 'stream'
    timers.fire(1000)
    await until(() => server.calls.length === 3)
    expect(server.calls[2]?.headers['last-event-id']).toBe('r-5')
    server.send('id: r-6\nevent: balance\ndata: {}\n\n')
    await until(() => stream.healthy)
    expect(statuses).toEqual([
      'connecting',
      'live',
      'retrying',
      'off',
      'connecting',
      'retrying',
      'off',
      'connecting',
      'live',
    ])
    // Healthy again: the next failure starts from the first wait.
    server.end()
    await until(() => stream.status === 'retrying')
    expect(timers.waits()).toEqual([500])
  })

  it('closes while the page is hidden and opens again when it is shown, asking for what it missed', async () => {
    const { server, stream, setVisible } = setUp()
    stream.setWanted(true)
    await until(() => server.calls.length === 1)
    server.send('id: r-3\nevent: snapshot\ndata: {}\n\n')
    await until(() => stream.healthy)
    setVisible(false)
    expect(server.calls[0]?.signal.aborted).toBe(true)
    expect(stream.status).toBe('off')
    await settle()
    expect(server.calls).toHaveLength(1)
    setVisible(true)
    await until(() => server.calls.length === 2)
    expect(server.calls[1]?.headers['last-event-id']).toBe('r-3')
  })

  it('counts a stream silent for three heartbeats as failed', async () => {
    const { server, timers, stream } = setUp()
    stream.setWanted(true)
    await until(() => server.calls.length === 1)
    server.send('id: r-1\nevent: snapshot\ndata: {}\n\n')
    await until(() => stream.healthy)
    timers.fire(SILENCE_MS)
    expect(stream.status).toBe('retrying')
    expect(server.calls[0]?.signal.aborted).toBe(true)
  })

  it('ends the session on session_end, or on a session-lost answer instead of a stream, and stops', async () => {
    const a = setUp()
    a.stream.setWanted(true)
    await until(() => a.server.calls.length === 1)
    a.server.send('id: r-1\nevent: session_end\ndata: {"reason":"revoked"}\n\n')
    await until(() => a.ended.length === 1)
    expect(a.stream.status).toBe('off')
    expect(a.timers.waits()).toEqual([])

    const b = setUp()
    b.server.next = { status: 200, body: '{"code":10001,"msg":"登录已失效!","data":null}' }
    b.stream.setWanted(true)
    await until(() => b.ended.length === 1)
    expect(b.ended).toEqual(['登录已失效!'])
    expect(b.stream.status).toBe('off')
    expect(b.timers.waits()).toEqual([])
  })

  it('retries after a refusal that is not about the session (the fault layer, a busy server)', async () => {
    const { server, stream, timers, ended } = setUp()
    server.next = { status: 503, body: '{"code":50300,"msg":"busy","data":null}' }
    stream.setWanted(true)
    await until(() => stream.status === 'retrying')
    expect(ended).toEqual([])
    expect(timers.waits()).toEqual([750])
  })
})
