import { TOKEN_HEADER } from '@shared/constants'
import { type SseFrame, SseParser } from '@shared/sse'

export interface ReadEvent {
  readonly id: string | null
  readonly event: string
  // biome-ignore lint/suspicious/noExplicitAny: tests read event data loosely
  readonly data: any
}

export interface TestStream {
  readonly status: number
  readonly contentType: string | null
  readonly events: ReadEvent[]
  readonly comments: string[]
  /** Resolves with the first event (seen or to come) that matches; rejects after `ms` or when the stream ends first. */
  next(match: (e: ReadEvent) => boolean, ms?: number): Promise<ReadEvent>
  /** Resolves when the server has ended the stream. */
  readonly ended: Promise<void>
  /** Once ended: whether the body broke off (a network failure, or `close()`) rather than ending. */
  readonly failed: boolean
  close(): void
}

/** Opens `GET /api/stream` with fetch and reads it as the app does (the token in its header). */
export async function openStream(
  base: string,
  token: string,
  lastEventId?: string,
  /** The query string, `?player_id=…` as the app sends it (proxy mode checks the session with it). */
  query = '',
): Promise<TestStream> {
  const abort = new AbortController()
  const headers: Record<string, string> = { [TOKEN_HEADER]: token, accept: 'text/event-stream' }
  if (lastEventId) headers['last-event-id'] = lastEventId
  const res = await fetch(`${base}/api/stream${query}`, { headers, signal: abort.signal })
  const events: ReadEvent[] = []
  const comments: string[] = []
  const waiters = new Set<() => void>()
  let done = false
  let failed = false
  const parser = new SseParser({
    onEvent: (f: SseFrame) => {
      events.push({ id: f.id, event: f.event, data: JSON.parse(f.data) })
      for (const w of [...waiters]) w()
    },
    onComment: (c) => {
      comments.push(c)
      for (const w of [...waiters]) w()
    },
  })
  const ended = (async () => {
    if (!res.body) return
    const decoder = new TextDecoder()
    try {
      for await (const chunk of res.body) parser.push(decoder.decode(chunk as Uint8Array, { stream: true }))
    } catch {
      // aborted, or cut off
      failed = true
    } finally {
      done = true
      for (const w of [...waiters]) w()
    }
  })()
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events,
    comments,
    ended,
    get failed() {
      return failed
    },
    next(match, ms = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match)
          if (found) {
            cleanup()
            resolve(found)
          } else if (done) {
            cleanup()
            reject(new Error(`stream ended; saw ${events.map((e) => e.event).join(', ')}`))
          }
        }
        const timer = setTimeout(() => {
          cleanup()
          reject(new Error(`no matching event in ${ms} ms; saw ${events.map((e) => e.event).join(', ')}`))
        }, ms)
        const cleanup = () => {
          clearTimeout(timer)
          waiters.delete(check)
        }
        waiters.add(check)
        check()
      })
    },
    close: () => abort.abort(),
  }
}
