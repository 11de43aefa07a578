import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, type LiveServer, liveLogin, startLive } from '../server/fault/live-servers'
import { parseDuration, parseTime, parseWallTime, runCli } from './emu-cli'

let live: LiveServer
beforeAll(async () => {
  live = await startLive('emulator', { EMU_ADMIN_TOKEN: ADMIN_TOKEN })
}, 120_000)
afterAll(async () => {
  await live.close()
}, 120_000)

/** Runs the CLI in-process against the live server, with the URL and token from the environment. */
async function emu(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { EMU_URL: live.url, EMU_ADMIN_TOKEN: ADMIN_TOKEN },
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

async function balanceCode(token: string, playerId: number, headers: Record<string, string> = {}) {
  const res = await fetch(`${live.url}/api/api/getBalance?player_id=${playerId}`, {
    headers: { token, ...headers },
  })
  return ((await res.json()) as { code: number }).code
}

describe('npm run emu', () => {
  it('adds, lists, inspects and deletes a fault', async () => {
    const player = await liveLogin(live.url)
    const added = await emu(
      'fault',
      'add',
      '--path',
      '/api/api/getBalance',
      '--envelope',
      '10001',
      '--msg',
      '登录已失效!',
      '--times',
      '1',
    )
    expect(added.code).toBe(0)
    const id = added.out.split(/\s+/)[0] ?? ''
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    expect((await emu('fault', 'list')).out).toContain(id)
    expect(await balanceCode(player.token, player.playerId)).toBe(10001)
    expect(await balanceCode(player.token, player.playerId)).toBe(1)
    expect(JSON.parse((await emu('fault', 'get', id)).out)).toMatchObject({ fired: 1, spent: true })
    expect((await emu('fault', 'rm', id)).code).toBe(0)
    expect((await emu('fault', 'list')).out).toBe('no rules')
  })

  it('adds stream faults, on the stream unless told otherwise', async () => {
    const added = await emu(
      'fault',
      'add',
      '--stream-skip',
      '2',
      '--after-events',
      '1',
      '--events',
      'draw,balance',
      '--json',
    )
    expect(added.code, added.err).toBe(0)
    expect(JSON.parse(added.out)).toMatchObject({
      match: { path: '/api/stream' },
      action: { type: 'streamSkip', count: 2, afterEvents: 1, events: ['draw', 'balance'] },
    })
    const refuse = await emu(
      'fault',
      'add',
      '--stream-refuse',
      '--refuse-status',
      '502',
      '--times',
      '3',
      '--json',
    )
    expect(JSON.parse(refuse.out)).toMatchObject({ action: { type: 'streamRefuse', status: 502 }, times: 3 })
    const delay = await emu('fault', 'add', '--stream-delay', '1s-3s', '--json')
    expect(JSON.parse(delay.out).action).toEqual({ type: 'streamDelay', minMs: 1000, maxMs: 3000 })
    const elsewhere = await emu('fault', 'add', '--stream-drop', '1', '--path', '/api/api/getBalance')
    expect(elsewhere.code).toBe(1)
    expect(elsewhere.err).toContain('/api/stream')
    expect((await emu('fault', 'add', '--stream-duplicate', '--events', 'nonsense')).code).toBe(1)
    expect((await emu('fault', 'clear', '--all')).code).toBe(0)
  })

  it('activates a scenario: session-expired ends the next session that calls', async () => {
    const player = await liveLogin(live.url)
    const res = await emu('scenario', 'session-expired')
    expect(res.code).toBe(0)
    expect(JSON.parse(res.out)).toMatchObject({ scenario: 'session-expired', scope: null })
    expect(await balanceCode(player.token, player.playerId)).toBe(10001)
    expect((await emu('reset')).code).toBe(2)
    expect((await emu('reset', '--all')).code).toBe(0)
  })

  it('moves the clock, scoped or not, and expires or revokes a session', async () => {
    const adv = JSON.parse((await emu('clock', 'advance', '1h', '--scope', 'cli-test')).out)
    expect(adv).toMatchObject({ mode: 'offset', offsetMs: 3_600_000, scope: 'cli-test' })
    expect(JSON.parse((await emu('clock')).out).mode).toBe('real')
    const frozen = JSON.parse((await emu('clock', 'freeze', '2030-01-01T00:00:00Z')).out)
    expect(frozen).toMatchObject({ mode: 'frozen', now: Date.parse('2030-01-01T00:00:00Z') })
    const back = await emu('clock', 'real')
    expect(back.code).toBe(1)
    expect(back.err).toMatch(/force/)
    expect((await emu('clock', 'real', '--force')).code).toBe(0)

    const player = await liveLogin(live.url)
    expect((await emu('session', 'revoke', player.token)).out).toBe('session revoke: ok')
    const res = await fetch(`${live.url}/api/api/getBalance?player_id=${player.playerId}`, {
      headers: { token: player.token },
    })
    expect(res.status).toBe(401)
    await res.body?.cancel()
    await emu('reset', '--all')
  })

  it('shows and counts the journal, and tails it', async () => {
    await emu('reset', '--all')
    const player = await liveLogin(live.url)
    await balanceCode(player.token, player.playerId, { 'x-emu-scope': 'cli-journal' })
    const lines = (await emu('requests', '--path', '/api/api/getBalance', '--scope', 'cli-journal')).out
    expect(lines).toMatch(/GET \/api\/api\/getBalance\?player_id=\d+ → 200 code 1/)
    expect((await emu('requests', 'count', '--unmatched', '--scope', 'cli-journal')).out).toBe('1')
    const args = ['--scope', 'cli-journal', '--path', '/api/api/getBalance', '--query', 'player_id']
    expect(await emu('requests', 'verify', ...args, '--times', '1')).toMatchObject({ code: 0 })
    const failed = await emu('requests', 'verify', ...args, '--at-least', '2')
    expect(failed).toMatchObject({ code: 1 })
    expect(failed.out).toMatch(/^FAILED: 1 call\(s\), expected at least 2/)
    expect((await emu('requests', 'count', '--scope', 'cli-journal', '--query', '!player_id')).out).toBe('0')

    const stop = new AbortController()
    const seen: string[] = []
    // tail reads where the journal ends first; the call to show is made once that answer is in.
    let started: () => void = () => {}
    const cursorRead = new Promise<void>((resolve) => {
      started = resolve
    })
    const tail = runCli(['tail', '--interval', '20', '--scope', 'cli-journal'], {
      out: (l) => {
        seen.push(l)
        stop.abort()
      },
      err: () => {},
      env: { EMU_URL: live.url, EMU_ADMIN_TOKEN: ADMIN_TOKEN },
      signal: stop.signal,
      fetch: async (input, init) => {
        const res = await fetch(input, init)
        started()
        return res
      },
    })
    await cursorRead
    await fetch(`${live.url}/api/api2/announcement`, { headers: { 'x-emu-scope': 'cli-journal' } }).then(
      (r) => r.text(),
    )
    expect(await tail).toBe(0)
    expect(seen[0]).toContain('/api/api2/announcement')
  })

  it('says what is wrong: usage errors exit 2, refusals exit 1', async () => {
    const none = await emu('fault', 'add', '--path', '/api/**')
    expect(none.code).toBe(2)
    expect(none.err).toMatch(/exactly one action/)
    expect((await emu('frobnicate')).code).toBe(2)
    // Clearing rules names its scope, as reset does.
    await emu('fault', 'add', '--path', '/api/nothing', '--hang', '--scope', 'cli-clear')
    expect((await emu('fault', 'clear')).code).toBe(2)
    expect((await emu('fault', 'clear', '--all', '--scope', 'cli-clear')).code).toBe(2)
    expect((await emu('fault', 'list', '--scope', 'cli-clear')).out).not.toBe('no rules')
    expect(JSON.parse((await emu('fault', 'clear', '--scope', 'cli-clear')).out)).toEqual({ removed: 1 })
    expect(JSON.parse((await emu('fault', 'clear', '--all')).out)).toMatchObject({ removed: 0 })
    const missing = await emu('fault', 'get', 'nope')
    expect(missing.code).toBe(1)
    expect(missing.err).toMatch(/404/)
    const wrongToken = await runCli(['state'], { out: () => {}, err: () => {}, env: { EMU_URL: live.url } })
    expect(wrongToken).toBe(1)
  })

  it('reads durations and times', () => {
    expect(parseDuration('1500')).toBe(1500)
    expect(parseDuration('90s')).toBe(90_000)
    expect(parseDuration('2h')).toBe(7_200_000)
    expect(() => parseDuration('soon')).toThrow(/duration/)
    expect(parseTime('1700000000000')).toBe(1_700_000_000_000)
    expect(parseTime('2030-01-01T00:00:00Z')).toBe(Date.parse('2030-01-01T00:00:00Z'))
    expect(parseWallTime('10m', 1_000_000)).toBe(400_000)
    expect(parseWallTime('1700000000000')).toBe(1_700_000_000_000)
  })
})
