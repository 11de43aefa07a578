import type { Socket } from 'node:net'
import { Readable } from 'node:stream'
import type { FaultAction } from '@shared/emu-control'
import { MSG, SERVER_MSG } from '@shared/messages'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { rawHead } from '../http/raw-head'
import type { JournalRecord } from './journal'
import type { Firing } from './rule-store'

/** See FaultLayer.handle. A promise that resolves to `true`: the layer answered once it had decided. */
export type Verdict = undefined | true | Promise<undefined | true>

const MALFORMED_BODY =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>'

/** The timers an action holds or paces an answer with. */
export interface ActionTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** Real time, as testers' faults run (docs/testing.md#actions). */
export const REAL_TIMERS: ActionTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/**
 * What a fired rule does, carried out on the real socket: answers in its place (an envelope, a
 * status, a malformed body), holds it (a delay, latency), takes the connection over (hang, reset,
 * time-out, empty), or marks the answer to be cut short or shaped when it is sent.
 */
export class FaultActions {
  private readonly hung = new Set<Socket>()
  /**
   * What delays, latency, time-outs and the shapes wait with: real time. A test puts timers of its
   * own here to see what an action asked for and to run it without waiting.
   */
  timers: ActionTimers = REAL_TIMERS

  private sleep(ms: number): Promise<undefined> {
    return new Promise<undefined>((resolve) => this.timers.setTimeout(() => resolve(undefined), ms))
  }

  /** Sockets left hanging are closed when the server shuts down. */
  closeHung(): void {
    for (const s of this.hung) s.destroy()
    this.hung.clear()
  }

  apply(firing: Firing, request: FastifyRequest, reply: FastifyReply, entry: JournalRecord | null): Verdict {
    const { action, random } = firing
    switch (action.type) {
      case 'envelope': {
        const body: Record<string, unknown> = { code: action.code }
        if (action.msg !== undefined) body.msg = action.msg
        if (action.message !== undefined) body.message = action.message
        body.data = action.data ?? null
        reply.code(200).send(body)
        return true
      }
      case 'status': {
        if (action.headers) reply.headers(action.headers)
        const body = action.body ?? { code: action.status, msg: statusMessage(action.status), data: null }
        reply.code(action.status)
        if (typeof body === 'string') reply.type('text/plain; charset=utf-8')
        reply.send(body)
        return true
      }
      case 'delay':
        return this.sleep(delayMs(action, random))
      case 'hang': {
        if (entry) entry.outcome = 'hang'
        reply.hijack()
        const socket = request.raw.socket
        this.hung.add(socket)
        socket.once('close', () => this.hung.delete(socket))
        return true
      }
      case 'reset': {
        if (entry) entry.outcome = 'reset'
        reply.hijack()
        const socket = request.raw.socket
        if (action.after === 'head') {
          // A status line and headers announcing a body, part of it, then the reset: bytes of an
          // answer arrived, so the browser reports the failure instead of retrying. The head is the
          // one a real answer has (the /api headers are set as the request arrives): without its
          // `cache-control: no-store`, Chromium keeps the broken answer as a cache entry that a
          // second call to the same URL waits on, then sends again itself.
          const head = rawHead(200, {
            ...reply.getHeaders(),
            'content-type': 'application/json; charset=utf-8',
            'content-length': 64,
          })
          socket.write(`${head}{"code":`, () => setTimeout(() => socket.resetAndDestroy(), 20))
        } else socket.resetAndDestroy()
        return true
      }
      case 'timeout': {
        if (entry) entry.outcome = 'timeout'
        reply.hijack()
        const socket = request.raw.socket
        this.hung.add(socket)
        const timer = this.timers.setTimeout(() => socket.destroy(), action.ms)
        socket.once('close', () => {
          this.timers.clearTimeout(timer)
          this.hung.delete(socket)
        })
        return true
      }
      case 'latency': {
        const jitter = action.jitterMs ?? 0
        const ms = Math.max(0, action.ms + Math.round((random() * 2 - 1) * jitter))
        return this.sleep(ms)
      }
      case 'bandwidth':
      case 'slicer':
      case 'slowClose':
        request.shapeReply = action
        return undefined
      case 'empty':
        if (entry) entry.outcome = 'empty'
        reply.hijack()
        request.raw.socket.destroy()
        return true
      case 'malformed':
        reply
          .code(200)
          .type('application/json; charset=utf-8')
          .send(action.body ?? MALFORMED_BODY)
        return true
      case 'truncate':
        request.truncateReply = true
        return undefined
      case 'streamRefuse':
        reply.code(action.status).send({ code: action.status, msg: statusMessage(action.status), data: null })
        return true
      case 'streamDrop':
      case 'streamDelay':
      case 'streamDuplicate':
      case 'streamReorder':
      case 'streamSkip':
      case 'streamSessionEnd':
        // Carried out on the stream's events, by the stream's tap (./stream-faults.ts).
        request.streamFault = { action, random }
        return undefined
    }
  }

  /**
   * onSend half of `truncate`: the full length is announced, half the bytes are sent, then the
   * connection is closed (after those bytes are flushed), so the client sees a body cut short.
   */
  static async truncate(payload: unknown, reply: FastifyReply): Promise<Readable> {
    const full = await toBuffer(payload)
    reply.header('content-length', full.length)
    reply.removeHeader('transfer-encoding')
    const half = full.subarray(0, Math.floor(full.length / 2))
    reply.header('connection', 'close')
    const res = reply.raw
    // Once the head and the half are queued on the socket, end it there: end() flushes them first.
    const cut = () => {
      const socket = res.socket
      if (!socket || socket.destroyed) return
      if (res.headersSent) socket.end(() => socket.destroy())
      else setImmediate(cut)
    }
    let pushed = false
    return new Readable({
      read() {
        if (pushed) return
        pushed = true
        this.push(half)
        setImmediate(cut)
      },
    })
  }
}

/** The message of a `status` fault without a body: what the app would show for that status. */
export function statusMessage(status: number): string {
  if (status === 401 || status === 403) return MSG.sessionExpired
  if (status === 404) return SERVER_MSG.notFound
  if (status === 413) return SERVER_MSG.payloadTooLarge
  if (status === 429) return SERVER_MSG.rateLimited
  if (status === 400 || status === 422) return SERVER_MSG.invalidInput
  if (status >= 500) return SERVER_MSG.internal
  return MSG.requestFailed
}

export type ShapeAction = Extract<FaultAction, { type: 'bandwidth' | 'slicer' | 'slowClose' }>

/**
 * The answer's bytes, sent the way the action says: at a bandwidth, in slices, or whole with its
 * end held back. The head goes out at once; for bandwidth and slicer it announces the full length.
 */
export function shapeAnswer(
  action: ShapeAction,
  body: Buffer,
  reply: FastifyReply,
  timers: ActionTimers = REAL_TIMERS,
): Readable {
  reply.removeHeader('transfer-encoding')
  let chunks: Buffer[]
  let gapMs: number
  let holdMs = 0
  if (action.type === 'slowClose') {
    // No length: the body ends only when the stream does, so the client waits for the close.
    reply.removeHeader('content-length')
    chunks = [body]
    gapMs = 0
    holdMs = action.ms
  } else {
    reply.header('content-length', body.length)
    const size =
      action.type === 'slicer' ? action.chunkBytes : Math.max(1, Math.floor(action.bytesPerSecond / 10))
    gapMs = action.type === 'slicer' ? action.delayMs : Math.round((size / action.bytesPerSecond) * 1000)
    chunks = []
    for (let i = 0; i < body.length; i += size) chunks.push(body.subarray(i, i + size))
  }
  let i = 0
  let timer: unknown
  return new Readable({
    read() {
      if (timer !== undefined) return
      const next = chunks[i++]
      if (next === undefined) {
        timer = timers.setTimeout(() => this.push(null), holdMs)
        return
      }
      const send = () => {
        timer = undefined
        this.push(next)
      }
      if (i === 1 || gapMs === 0) send()
      else timer = timers.setTimeout(send, gapMs)
    },
    destroy(err, cb) {
      if (timer !== undefined) timers.clearTimeout(timer)
      cb(err)
    },
  })
}

function delayMs(action: Extract<FaultAction, { type: 'delay' }>, random: () => number): number {
  if (action.ms !== undefined) return action.ms
  const min = action.minMs ?? 0
  const max = Math.max(min, action.maxMs ?? min)
  return min + Math.floor(random() * (max - min + 1))
}

/** An answer's payload as bytes, whatever Fastify was about to send. */
export async function toBuffer(payload: unknown): Promise<Buffer> {
  if (payload === null || payload === undefined) return Buffer.alloc(0)
  if (Buffer.isBuffer(payload)) return payload
  if (typeof payload === 'string') return Buffer.from(payload)
  if (payload instanceof Readable || (typeof payload === 'object' && Symbol.asyncIterator in payload)) {
    const chunks: Buffer[] = []
    for await (const chunk of payload as AsyncIterable<Buffer | string>) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
    }
    return Buffer.concat(chunks)
  }
  return Buffer.from(JSON.stringify(payload))
}
