import { gamesKit, T0 } from '@server/emulator/games/games-test-kit'
import { listenOnLoopback } from '@server/test-support/listen'
import { openStream, type TestStream } from '@server/test-support/stream-client'
import { CODE } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { VirtualTime } from '../test-support/fake-round-upstream'
import { upstreamCallsPerDraw } from '../test-support/proxy-realtime'
import type { UpstreamReader } from './upstream-reader'

/**
 * Proxy mode's push channel over real sockets: the proxy serves `GET /api/stream` itself, checks the
 * session once at the upstream, and carries the upstream's draws, read once per draw whatever the
 * number of streams. The upstream is a server in emulator mode with its clock frozen; the reader's
 * timers are fired by the test (VirtualTime), so nothing waits for real time.
 */

const closers: (() => Promise<void>)[] = []
const streams: TestStream[] = []
afterEach(async () => {
  for (const s of streams.splice(0)) s.close()
  for (const c of closers.splice(0).reverse()) await c()
})

async function setUp() {
  const kit = await gamesKit(T0, 0)
  kit.games.rounds.ensureChain()
  const upstreamUrl = await listenOnLoopback(kit.t.app)
  closers.push(() => kit.t.close())
  let reader: UpstreamReader | null = null
  const time = new VirtualTime(T0, async () => {
    await new Promise((resolve) => setImmediate(resolve))
    await reader?.whenIdle()
  })
  const proxy: FastifyInstance = await buildApp(
    testConfig({ MODE: 'proxy', UPSTREAM_URL: upstreamUrl }),
    undefined,
    undefined,
    {
      readerTimers: time.timers,
      readerNow: () => time.now,
      onReader: (r) => {
        reader = r
      },
    },
  )
  const proxyUrl = await listenOnLoopback(proxy)
  closers.push(() => proxy.close())
  const open = async (token: string, playerId: number) => {
    const s = await openStream(proxyUrl, token, undefined, `?player_id=${playerId}`)
    streams.push(s)
    return s
  }
  if (!reader) throw new Error('no reader')
  return { kit, upstreamUrl, proxy, proxyUrl, time, open, reader: reader as UpstreamReader }
}

describe('GET /api/stream in proxy mode', () => {
  it('checks the session at the upstream once, when the stream opens', async () => {
    const { kit, proxy, proxyUrl, open } = await setUp()
    const player = kit.players[0]
    if (!player) throw new Error('no player')
    const none = await proxy.inject({ method: 'GET', url: `/api/stream?player_id=${player.playerId}` })
    expect(none.json().code).toBe(CODE.sessionExpired)
    const bad = await fetch(`${proxyUrl}/api/stream?player_id=${player.playerId}`, {
      headers: { token: 'f'.repeat(32), accept: 'text/event-stream' },
    })
    expect((await bad.json()).code).toBe(CODE.sessionExpired)
    const noId = await proxy.inject({ method: 'GET', url: '/api/stream', headers: { token: player.token } })
    expect(noId.statusCode).toBe(400)
    expect(noId.json()).toMatchObject({ code: CODE.invalidInput, msg: 'player_id 参数错误' })
    // Another player's id: the upstream refuses it, and so does the stream.
    const other = await proxy.inject({
      method: 'GET',
      url: `/api/stream?player_id=${player.playerId + 1}`,
      headers: { token: player.token },
    })
    expect(other.json().code).not.toBe(CODE.ok)

    const s = await open(player.token, player.playerId)
    expect(s.status).toBe(200)
    expect(s.contentType).toContain('text/event-stream')
    const snapshot = await s.next((e) => e.event === 'snapshot')
    expect(snapshot.data).toMatchObject({ reason: 'new', player_events: false })

    // A session ended at the upstream: the next stream is refused with the session-lost envelope.
    await kit.call({ method: 'POST', url: '/api/users/logout', headers: { token: player.token } })
    const after = await fetch(`${proxyUrl}/api/stream?player_id=${player.playerId}`, {
      headers: { token: player.token, accept: 'text/event-stream' },
    })
    expect((await after.json()).code).toBe(CODE.sessionExpired)
  })

  it("carries the upstream's rounds and draws, read once per game per draw whatever the number of streams", async () => {
    const { kit, time, open, reader } = await setUp()
    const player = kit.players[0]
    if (!player) throw new Error('no player')
    // No stream open: the upstream is not read.
    await time.advance(10_000)
    expect(reader.calls.currentRound).toBe(0)
    kit.t.clock.advance(10_000)

    const opened = await Promise.all(Array.from({ length: 20 }, () => open(player.token, player.playerId)))
    for (const s of opened) await s.next((e) => e.event === 'snapshot')
    await time.advance(0) // the reader's first read of every game
    const first = reader.calls.currentRound
    expect(first).toBe(5)
    const current = (await kit.call({ method: 'GET', url: '/api/games/round?game=qukuai' })).data
    expect(current.state).toBe('OPEN')

    // The upstream's world moves past the block game's draw; the reader's timers come due.
    kit.t.clock.advance(current.draw_at - kit.t.clock.now() + 500)
    await time.advance(3_000)
    const results = (
      await kit.call({ method: 'GET', url: '/api/games/results?game=qukuai&page=1&page_size=1' })
    ).data.list[0]
    expect(results.round_id).toBe(current.round_id)
    for (const s of opened) {
      const draw = await s.next((e) => e.event === 'draw' && e.data.game === 'qukuai')
      expect(draw.data).toEqual(results)
      const sealed = await s.next((e) => e.event === 'round' && e.data.state === 'SEALED')
      expect(sealed.data).toMatchObject({ game: 'qukuai', round_id: current.round_id, ms_to_seal: 0 })
      const next = await s.next((e) => e.event === 'round' && e.data.round_id === current.next.round_id)
      expect(next.data).toMatchObject({ game: 'qukuai', state: 'OPEN', previous: results })
      // In the emulator's order: sealed, drawn, the next one open.
      const order = s.events.map((e) => e.event)
      expect(order.indexOf('draw')).toBeLessThan(order.lastIndexOf('round'))
    }
    // One read for the draw of the block game, whatever the twenty streams.
    expect(reader.calls.currentRound - first).toBe(1)
    expect(reader.calls.gameResults).toBe(0)
  })

  it('costs the upstream one read per draw, for one stream as for fifty (the benchmark helper)', async () => {
    const measured = []
    for (const streams of [1, 50])
      measured.push(await upstreamCallsPerDraw({ streams, ms: 30_000, time: new VirtualTime(T0) }))
    const [one, fifty] = measured
    // Ten block-game draws in 30 s, each read once; the session checked once per stream, at its start.
    expect(one).toMatchObject({
      draws: 10,
      perDraw: 1,
      sessionChecks: 1,
      requests: { '/api/games/round': 10 },
    })
    expect(fifty).toMatchObject({
      draws: 10,
      perDraw: 1,
      sessionChecks: 50,
      requests: { '/api/games/round': 10 },
    })
  })
})
