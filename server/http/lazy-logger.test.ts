import { Writable } from 'node:stream'
import Fastify, { type FastifyBaseLogger } from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { LazyChildLogger, lazyChildLoggerFactory, RequestLogController } from './lazy-logger'

function logger(level: string) {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
      done()
    },
  })
  const app = Fastify({ logger: { level, stream, redact: ['*.password'] } })
  return { log: app.log, lines }
}

describe('LazyChildLogger', () => {
  it('makes no child while nothing is written at the level', () => {
    const { log, lines } = logger('warn')
    const child = vi.spyOn(log, 'child')
    const lazy = new LazyChildLogger(log, { reqId: 'req-1' }, {})
    lazy.info('incoming request')
    lazy.debug({ a: 1 }, 'detail')
    expect(child).not.toHaveBeenCalled()
    expect(lines).toEqual([])
    expect(lazy.level).toBe('warn')
  })

  it('writes what the child would: its bindings, the message, redaction', () => {
    const { log, lines } = logger('info')
    const lazy = new LazyChildLogger(log, { reqId: 'req-2' }, {})
    lazy.info({ body: { password: 'secret' } }, 'hello %s', 'there')
    lazy.error(new Error('boom'))
    expect(lines[0]).toMatchObject({ reqId: 'req-2', msg: 'hello there', body: { password: '[Redacted]' } })
    expect(lines[1]).toMatchObject({ reqId: 'req-2', level: 50, err: { message: 'boom' } })
  })

  it('follows a level set on it, and children carry both bindings', () => {
    const { log, lines } = logger('warn')
    const lazy = new LazyChildLogger(log, { reqId: 'req-3' }, {})
    lazy.level = 'debug'
    lazy.debug('now shown')
    lazy.child({ part: 'db' }).warn('from a grandchild')
    expect(log.level).toBe('warn')
    expect(lines.map((l) => [l.reqId, l.part, l.msg])).toEqual([
      ['req-3', undefined, 'now shown'],
      ['req-3', 'db', 'from a grandchild'],
    ])
  })

  it('leaves a route with its own log level to pino at once', () => {
    const { log } = logger('warn')
    const made = lazyChildLoggerFactory(log, { reqId: 'r' }, { level: 'debug' }) as FastifyBaseLogger
    expect(made).not.toBeInstanceOf(LazyChildLogger)
    expect(made.level).toBe('debug')
    expect(lazyChildLoggerFactory(log, { reqId: 'r' }, {})).toBeInstanceOf(LazyChildLogger)
  })
})

describe('RequestLogController', () => {
  async function requestLines(level: string) {
    const lines: Record<string, unknown>[] = []
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>)
        done()
      },
    })
    const app = Fastify({
      logger: { level, stream },
      childLoggerFactory: lazyChildLoggerFactory,
      logController: new RequestLogController(level),
    })
    app.get('/ok', async () => ({ ok: true }))
    app.get('/fail', async () => {
      throw new Error('boom')
    })
    await app.inject({ url: '/ok' })
    await app.inject({ url: '/fail' })
    await app.close()
    return lines.map((l) => [l.level, l.msg])
  }

  it('writes the request lines at info and below', async () => {
    expect(await requestLines('info')).toEqual([
      [30, 'incoming request'],
      [30, 'request completed'],
      [30, 'incoming request'],
      [50, 'boom'],
      [30, 'request completed'],
    ])
  })

  it('skips them above info, and still writes errors', async () => {
    expect(await requestLines('warn')).toEqual([[50, 'boom']])
  })
})
