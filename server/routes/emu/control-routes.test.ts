import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { adminTokenMatches } from '@server/fault/admin-access'
import { ADMIN_TOKEN, type LiveServer, liveLogin, startLive } from '@server/fault/live-servers'
import { ROOT_DIR } from '@server/paths'
import { checkingFetch, parseAnswer } from '@server/test-support/answers'
import { createTestApp } from '@server/test-support/test-app'
import * as control from '@shared/emu-contract/control'
import { type ControlDataOf, type ControlEndpoint, controlPath } from '@shared/emu-contract/control-endpoint'
import { emuTransfer, gamesChain } from '@shared/emu-contract/games'
import { CONTROL_ENDPOINTS } from '@shared/emu-contract/registry'
import * as upstream from '@shared/emu-contract/upstream'
import * as wallet from '@shared/emu-contract/wallet'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { EmuClient, type EmuClientOptions, EmuControlError } from '../../../scripts/emu/emu-client'

let live: LiveServer | undefined
afterEach(async () => {
  await live?.close()
  live = undefined
})

/** Every control answer these tests receive over a socket is parsed with its contract first. */
const checked = checkingFetch()
const emuClient = (options: EmuClientOptions) => new EmuClient({ ...options, fetch: checked })
afterAll(() => {
  expect(checked.checked).toBeGreaterThan(50)
})

async function getJson(url: string, init: RequestInit = {}) {
  const res = await checked(url, init)
  return { status: res.status, body: (await res.json()) as { code: number; msg?: string; data: unknown } }
}

/** A urlencoded POST whose body is sent once the server has read the head, in a packet of its own. */
function postLate(server: LiveServer, path: string, token: string, scope: string): Promise<{ code: number }> {
  const { hostname, port } = new URL(server.url)
  const body = new URLSearchParams({ old_password: 'wrong-password', new_password: 'secret999' }).toString()
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ntoken: ${token}\r\nx-emu-scope: ${scope}\r\n` +
          `content-type: application/x-www-form-urlencoded\r\ncontent-length: ${body.length}\r\n` +
          'connection: close\r\n\r\n',
      )
      server.app.server.once('request', () => socket.write(body))
    })
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
    })
    socket.on('error', reject)
    socket.on('end', () =>
      resolve(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number }),
    )
  })
}

describe('scopes', () => {
  it('two scopes in parallel see only their own faults, clocks and journal', async () => {
    live = await startLive('emulator')
    const root = emuClient({ url: live.url })
    const a = root.withScope('test-a')
    const b = root.withScope('test-b')
    const player = await liveLogin(live.url)
    const path = `${live.url}/api/api/getBalance?player_id=${player.playerId}`
    const call = (scope: string) =>
      fetch(path, { headers: { token: player.token, 'x-emu-scope': scope } }).then(async (r) => ({
        status: r.status,
        code: ((await r.json()) as { code: number }).code,
      }))

    const ruleA = await a.fault('/api/api/getBalance', { type: 'envelope', code: 401 }, { times: 2 })
    await b.fault('/api/api/getBalance', { type: 'status', status: 503 }, { after: 1 })
    expect(ruleA.scope).toBe('test-a')
    expect((await a.faults()).map((r) => r.id)).toEqual([ruleA.id])

    // Interleaved and concurrent: each scope's schedule runs on its own calls only.
    const results = await Promise.all([
      call('test-a'),
      call('test-b'),
      call('test-a'),
      call('test-b'),
      call('test-c'),
    ])
    const byScope = (i: number) => results[i]
    expect(byScope(4)).toEqual({ status: 200, code: 1 })
    expect([byScope(0), byScope(2)]).toEqual([
      { status: 200, code: 401 },
      { status: 200, code: 401 },
    ])
    expect([byScope(1)?.code, byScope(3)?.code].sort()).toEqual([1, 503])
    expect(await call('test-a')).toEqual({ status: 200, code: 1 })

    // Each scope's journal holds only its calls.
    expect(await a.countRequests()).toBe(3)
    expect(await b.countRequests()).toBe(2)
    expect((await b.requests()).entries.every((e) => e.scope === 'test-b')).toBe(true)

    // A scope's clock moves only that scope's time: the emulator's own session check follows it.
    await a.advanceClock(8 * 24 * 3600 * 1000)
    // Also for a call whose body arrives after its head, and is read outside the request's scope.
    expect(await postLate(live, '/api/users/change-password', player.token, 'test-a')).toMatchObject({
      code: 10001,
    })
    expect(await call('test-a')).toEqual({ status: 200, code: 10001 })
    await b.clearFaults()
    expect(await call('test-b')).toEqual({ status: 200, code: 1 })
    expect((await root.clock()).mode).toBe('real')
    expect((await a.clock()).scope).toBe('test-a')

    // Resetting one scope leaves the other alone.
    await b.fault('/api/**', { type: 'hang' })
    await a.reset()
    expect(await a.faults()).toEqual([])
    expect(await a.countRequests()).toBe(0)
    expect(await b.faults()).toHaveLength(1)
    expect(await call('test-a')).toEqual({ status: 200, code: 1 })
    const state = await root.state()
    expect(state.scopes.map((s) => s.scope)).toEqual(['test-b'])
  })

  it('every call takes the scope from ?scope= or the header, POSTs included; reset names its scope', async () => {
    live = await startLive('emulator')
    const root = emuClient({ url: live.url })
    const post = (path: string, init: RequestInit = {}) =>
      getJson(`${live?.url}/__emu${path}`, { method: 'POST', ...init })
    const global = await root.fault('/api/api2/announcement', { type: 'status', status: 503 })
    const inZ = await root.withScope('zzz').fault('/api/**', { type: 'hang' })
    const inY = await root.withScope('yyy').fault('/api/**', { type: 'hang' })
    const player = await root.login()
    await root.withScope('yyy').expireSession(player.token)

    // A scenario activated with ?scope= is that scope's only.
    expect((await post('/scenarios/network-down/activate?scope=zzz')).body).toMatchObject({
      code: 1,
      data: { scope: 'zzz' },
    })
    expect((await root.state()).scenario).toBeNull()
    expect((await root.withScope('zzz').state()).scenario).toBe('network-down')

    // Reset of one scope, named in the query, leaves every other scope and the unscoped rules.
    expect((await post('/reset?scope=zzz')).body).toMatchObject({ code: 1, data: { scope: 'zzz' } })
    const ids = (await root.faults()).map((r) => r.id)
    expect(ids).toContain(global.id)
    expect(ids).toContain(inY.id)
    expect(ids).not.toContain(inZ.id)
    expect((await root.state()).sessionFaults).toHaveLength(1)

    // A reset that names no scope is refused; `*` is everything.
    const bare = await post('/reset')
    expect(bare).toMatchObject({ status: 400, body: { code: 40000 } })
    expect(bare.body.msg).toMatch(/scope=\*/)
    expect((await root.faults()).length).toBe(2)
    // Clearing the rules names its scope the same way: none is refused and removes nothing.
    const del = (path: string, init: RequestInit = {}) =>
      getJson(`${live?.url}/__emu${path}`, { method: 'DELETE', ...init })
    const bareClear = await del('/faults')
    expect(bareClear).toMatchObject({ status: 400, body: { code: 40000 } })
    expect(bareClear.body.msg).toMatch(/scope=\*/)
    expect((await root.faults()).length).toBe(2)
    await expect(root.clearFaults()).rejects.toMatchObject({ status: 400 })
    expect(() => root.withScope('yyy').clearFaults({ all: true })).toThrow(/all/)
    const inX = await root.withScope('xxx').fault('/api/**', { type: 'hang' })
    expect((await del('/faults', { headers: { 'x-emu-scope': 'xxx' } })).body).toMatchObject({
      code: 1,
      data: { removed: 1 },
    })
    expect((await root.faults()).map((r) => r.id)).not.toContain(inX.id)
    expect((await root.faults()).length).toBe(2)
    // Two different scopes in one call are refused.
    const clash = await post('/faults?scope=a', {
      headers: { 'content-type': 'application/json', 'x-emu-scope': 'b' },
      body: JSON.stringify({ action: { type: 'hang' } }),
    })
    expect(clash).toMatchObject({ status: 400 })
    // A scope sees only its own rules by id.
    await expect(root.withScope('zzz').getFault(inY.id)).rejects.toMatchObject({ status: 404 })
    await expect(root.withScope('zzz').deleteFault(inY.id)).rejects.toMatchObject({ status: 404 })
    expect(await root.withScope('yyy').getFault(inY.id)).toMatchObject({ id: inY.id })

    await root.withScope('yyy').reset()
    expect((await root.state()).sessionFaults).toEqual([])
    // The domains' controls take ?scope= too (their data is shared, so it narrows nothing).
    expect((await getJson(`${live?.url}/__emu/deposits?scope=yyy`)).body.code).toBe(1)
    await root.withScope('zzz').fault('/api/**', { type: 'hang' })
    expect(await root.clearFaults({ all: true })).toEqual({ removed: 2 })
    expect(await root.faults()).toEqual([])
    expect((await post('/reset?scope=*')).body).toMatchObject({ code: 1, data: { scope: '*' } })
    expect(await root.faults()).toEqual([])
  })

  it('a rule scoped to a session token applies to that token only', async () => {
    live = await startLive('emulator')
    const emu = emuClient({ url: live.url })
    const one = await liveLogin(live.url)
    const two = await liveLogin(live.url)
    await emu.addFault({ scope: one.token, action: { type: 'envelope', code: 10001 } })
    const code = async (p: { token: string; playerId: number }) => {
      const r = await fetch(`${live?.url}/api/api/getBalance?player_id=${p.playerId}`, {
        headers: { token: p.token },
      })
      return ((await r.json()) as { code: number }).code
    }
    expect(await code(one)).toBe(10001)
    expect(await code(two)).toBe(1)
  })
})

describe('the control API', () => {
  it('lists, inspects and deletes rules; reset puts the data back to the seed', async () => {
    live = await startLive('emulator')
    const emu = emuClient({ url: live.url })
    const rule = await emu.fault(
      '/api/users/*',
      { type: 'delay', minMs: 10, maxMs: 20 },
      { label: 'slow users' },
    )
    expect(await emu.getFault(rule.id)).toMatchObject({
      label: 'slow users',
      matched: 0,
      fired: 0,
      spent: false,
    })
    expect((await emu.faults()).map((r) => r.id)).toEqual([rule.id])
    await emu.deleteFault(rule.id)
    await expect(emu.getFault(rule.id)).rejects.toMatchObject({ status: 404 })
    await expect(emu.deleteFault(rule.id)).rejects.toBeInstanceOf(EmuControlError)

    // A bad rule is refused with a message naming the field.
    const bad = await getJson(`${live.url}/__emu/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: { type: 'status', status: 99 } }),
    })
    expect(bad.status).toBe(400)
    expect(bad.body.msg).toMatch(/status/)

    // Data written after the seed is gone after a reset.
    const phone = '13500135000'
    await fetch(`${live.url}/api/sms/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ phone, purpose: 'register' }).toString(),
    })
    expect(await emu.sms(phone)).toHaveLength(1)
    await emu.freezeClock(1_700_000_000_000, { force: true })
    await emu.reset({ all: true, seed: 9 })
    expect(await emu.sms(phone)).toHaveLength(0)
    const state = await emu.state()
    expect(state).toMatchObject({ mode: 'emulator', seed: 9, rules: [], scenario: null })
    expect(state.clock.mode).toBe('real')
  })

  it('probability replays from a settable seed; until follows the clock', async () => {
    live = await startLive('emulator')
    const emu = emuClient({ url: live.url })
    const code = async () => {
      const r = await fetch(`${live?.url}/api/api2/announcement`)
      return ((await r.json()) as { code: number }).code === 503 ? '1' : '0'
    }
    const run = async (seed: number) => {
      await emu.reset({ all: true, seed })
      await emu.fault('/api/api2/announcement', { type: 'status', status: 503 }, { probability: 0.5 })
      let out = ''
      for (let i = 0; i < 24; i++) out += await code()
      return out
    }
    const first = await run(1234)
    expect(first).toMatch(/1/)
    expect(first).toMatch(/0/)
    expect(await run(1234)).toBe(first)
    expect(await run(4321)).not.toBe(first)

    await emu.reset({ all: true })
    const frozen = await emu.freezeClock(1_800_000_000_000)
    await emu.fault('/api/api2/announcement', { type: 'status', status: 503 }, { until: frozen.now + 60_000 })
    expect(await code()).toBe('1')
    await emu.advanceClock(60_000)
    expect(await code()).toBe('0')
  })

  it('refuses to move the world clock backwards unless forced; scope clocks may go back', async () => {
    live = await startLive('emulator')
    const emu = emuClient({ url: live.url })
    const ahead = await emu.advanceClock(3_600_000)
    await expect(emu.realClock()).rejects.toMatchObject({ status: 409 })
    await expect(emu.freezeClock(ahead.now - 60_000)).rejects.toThrow(/force/)
    await expect(emu.setClock({ mode: 'offset', offsetMs: 0 })).rejects.toThrow(/不能往回拨/)
    expect((await emu.clock()).offsetMs).toBe(3_600_000)
    // Forward, or standing still, is fine.
    expect((await emu.freezeClock()).mode).toBe('frozen')
    expect((await emu.setClock({ mode: 'frozen', at: ahead.now + 120_000 })).now).toBe(ahead.now + 120_000)
    expect((await emu.realClock({ force: true })).mode).toBe('real')
    const scoped = emu.withScope('back')
    await scoped.advanceClock(86_400_000)
    expect((await scoped.realClock()).mode).toBe('real')
  })

  it('needs no token in emulator mode when none is configured', async () => {
    live = await startLive('emulator')
    expect((await getJson(`${live.url}/__emu/state`)).status).toBe(200)
  })

  it('requires the configured token in emulator mode: 401 without, 403 wrong, 200 right', async () => {
    live = await startLive('emulator', { EMU_ADMIN_TOKEN: ADMIN_TOKEN })
    expect((await getJson(`${live.url}/__emu/state`)).status).toBe(401)
    const wrong = await getJson(`${live.url}/__emu/state`, {
      headers: { 'x-emu-admin-token': `${ADMIN_TOKEN}x` },
    })
    expect(wrong.status).toBe(403)
    const right = await getJson(`${live.url}/__emu/state`, { headers: { 'x-emu-admin-token': ADMIN_TOKEN } })
    expect(right).toMatchObject({ status: 200, body: { code: 1 } })
    await expect(emuClient({ url: live.url }).state()).rejects.toMatchObject({ status: 401 })
    // Other domains' /__emu routes are guarded the same way.
    expect((await getJson(`${live.url}/__emu/deposits`)).status).toBe(401)
    const walletRight = await getJson(`${live.url}/__emu/deposits`, {
      headers: { 'x-emu-admin-token': ADMIN_TOKEN },
    })
    expect(walletRight.status).toBe(200)
  })

  it('is off in proxy mode without a token, and on (token required) with one', async () => {
    live = await startLive('proxy', { EMU_ADMIN_TOKEN: '' })
    const off = await fetch(`${live.url}/__emu/state`)
    expect(off.status).toBe(404)
    await off.body?.cancel()
    await live.close()
    live = await startLive('proxy')
    expect((await getJson(`${live.url}/__emu/state`)).status).toBe(401)
    const state = await emuClient({ url: live.url, adminToken: ADMIN_TOKEN }).state()
    expect(state.mode).toBe('proxy')
    // Emulator-only calls say why they are refused.
    await expect(emuClient({ url: live.url, adminToken: ADMIN_TOKEN }).sms()).rejects.toThrow(/代理模式/)
  })

  it('refuses session faults for tokens that cannot be sessions', async () => {
    live = await startLive('emulator')
    const emu = emuClient({ url: live.url })
    await expect(emu.expireSession('3f2a…')).rejects.toMatchObject({ status: 400, code: 40000 })
    await expect(emu.expireSession('0123456789abcdef0123456789abcdef')).rejects.toThrow(/没有签发过/)
    await expect(emu.sessionLifetime('deadbeefdeadbeef', { requests: 1 })).rejects.toMatchObject({
      status: 404,
    })
    const player = await emu.login()
    await emu.sessionLifetime(player.token, { requests: 0 })
    await emu.expireSession('any')
    const res = await getJson(`${live.url}/api/api/getBalance?player_id=${player.playerId}`, {
      headers: { token: player.token },
    })
    expect(res.body.code).toBe(10001)
    // A POST with no body at all is fine.
    const bare = await getJson(`${live.url}/__emu/scenarios/flaky/activate?scope=bare`, { method: 'POST' })
    expect(bare.body.code).toBe(1)
  })

  it('compares admin tokens in constant time over digests', () => {
    expect(adminTokenMatches(ADMIN_TOKEN, ADMIN_TOKEN)).toBe(true)
    expect(adminTokenMatches('short', ADMIN_TOKEN)).toBe(false)
    expect(adminTokenMatches(undefined, ADMIN_TOKEN)).toBe(false)
    expect(adminTokenMatches([ADMIN_TOKEN], ADMIN_TOKEN)).toBe(false)
  })

  it('is never imported by the app players download', async () => {
    const offenders: string[] = []
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name)
        if (entry.isDirectory()) await walk(full)
        else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          const text = await readFile(full, 'utf8')
          if (/from ['"][^'"]*(emu-control|emu-contract|scripts\/emu\/)/.test(text)) offenders.push(full)
        }
      }
    }
    await walk(join(ROOT_DIR, 'client', 'src')).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err
    })
    expect(offenders).toEqual([])
  })
})

describe('every control call', () => {
  it('answers inside its contract: each success parsed with its data schema', async () => {
    // Recording writes a scenario file: into a copy of fixtures/, never into the repository.
    const fixtures = await mkdtemp(join(tmpdir(), 'emu-contract-'))
    await cp(join(ROOT_DIR, 'fixtures'), fixtures, { recursive: true })
    // A short chain is made at once: the transfer below finds its block covered however slow the
    // machine (a full-length chain is still being made for the first seconds).
    const t = await createTestApp({ FIXTURES_DIR: fixtures, GAME_CHAIN_LENGTH: '10000' })
    try {
      const answered = new Set<string>()
      const call = async <E extends ControlEndpoint>(
        e: E,
        input: { params?: Record<string, unknown>; query?: Record<string, string>; body?: unknown } = {},
      ): Promise<ControlDataOf<E>> => {
        const qs = new URLSearchParams(input.query).toString()
        const res = await t.app.inject({
          method: e.method,
          url: `${controlPath(e, input.params)}${qs ? `?${qs}` : ''}`,
          ...(input.body === undefined ? {} : { payload: input.body as object }),
        })
        const answer = parseAnswer<E['data']>(e, res.json())
        expect(answer.code, `${e.id}: ${answer.msg}`).toBe(1)
        answered.add(e.id)
        return answer.data
      }
      const form = async (url: string, fields: Record<string, string>, token?: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload: new URLSearchParams(fields).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(token ? { token } : {}) },
        })
        const body = res.json() as { code: number; msg: string; data: unknown }
        expect(body.code, `${url}: ${body.msg}`).toBe(1)
        return body.data as Record<string, unknown>
      }
      const scope = { scope: 'walk' }

      expect((await call(control.getState)).mode).toBe('emulator')
      expect(await call(control.setSeed, { body: { seed: 3 } })).toEqual({ seed: 3 })
      const rule = await call(control.addFault, {
        query: scope,
        body: {
          match: { path: '/api/nothing' },
          action: { type: 'status', status: 503 },
          inScenario: 'door',
          setState: 'Open',
        },
      })
      expect(await call(control.listFaults, { query: scope })).toHaveLength(1)
      expect((await call(control.getFault, { params: rule })).id).toBe(rule.id)
      await call(control.setState, { params: { name: 'door' }, body: { state: 'Open', ...scope } })
      expect(await call(control.listStates, { query: scope })).toEqual([
        { scope: 'walk', name: 'door', state: 'Open' },
      ])
      expect(await call(control.deleteFault, { params: rule })).toBeNull()
      await call(control.clearFaults, { query: scope })

      await call(control.startRecording, { body: { name: 'walk', ...scope } })
      expect(await call(control.getRecording, { query: scope })).toMatchObject({ name: 'walk' })
      await call(control.stopRecording, { body: scope })

      await call(control.getClock, { query: scope })
      await call(control.setClock, { query: scope, body: { mode: 'frozen' } })
      await call(control.advanceClock, { query: scope, body: { ms: 1000 } })

      await call(control.listRequests, { query: { limit: '5' } })
      await call(control.countRequests, { body: {} })
      await call(control.verifyRequests, { body: { path: '/api/**', atLeast: 0 } })

      const scenarios = await call(control.listScenarios)
      expect(scenarios.map((s) => s.name)).toContain('flaky')
      expect((await call(control.getScenario, { params: { name: 'flaky' } })).name).toBe('flaky')
      await call(control.activateScenario, { params: { name: 'flaky' }, body: scope })

      const phone = '13500135000'
      await form('/api/sms/send', { phone, purpose: 'register' })
      expect(await call(control.listSms, { query: { phone } })).toMatchObject([
        { phone, purpose: 'register' },
      ])

      // The wallet: a top-up confirmed, two withdrawals reviewed, the settings, the lock, the ledger.
      const { token, playerId } = await t.login()
      const deposit = await form('/api/usdtpay', { amount: '20' }, token)
      const pending = await call(wallet.listDeposits, {
        query: { player_id: String(playerId), status: 'pending' },
      })
      expect(pending.list.map((d) => d.id)).toContain(deposit.id)
      expect(await call(wallet.confirmDeposit, { params: { id: String(deposit.id) } })).toMatchObject({
        credited: true,
        order: { status: 'confirmed' },
      })
      const bound = (await form(
        '/api/api2/wallets/bind',
        { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', label: '主钱包', pay_password: '123456' },
        token,
      )) as { list: { id: number }[] }
      const walletId = String(bound.list[0]?.id)
      const withdraw = async () =>
        (
          (await form(
            '/api/api2/withdraw',
            { wallet_id: walletId, amount: '20', pay_password: '123456' },
            token,
          )) as {
            order: { id: number }
          }
        ).order.id
      const [first, second] = [await withdraw(), await withdraw()]
      expect((await call(wallet.listWithdrawals, { query: { status: 'pending' } })).total).toBe(2)
      expect((await call(wallet.approveWithdrawal, { params: { id: String(first) } })).status).toBe(
        'approved',
      )
      expect(
        await call(wallet.rejectWithdrawal, { params: { id: String(second) }, body: { reason: '测试' } }),
      ).toMatchObject({ status: 'rejected', reason: '测试' })
      const settings = await call(wallet.getWalletSettings)
      const patched = await call(wallet.patchWalletSettings, { body: { deposit: { confirmations: 2 } } })
      expect(patched.deposit).toEqual({ ...settings.deposit, confirmations: 2 })
      expect(await call(wallet.unlockPayPassword, { params: { playerId } })).toBeNull()
      expect(await call(wallet.walletDrift)).toEqual({ drift: [] })
      // Emulator mode checks nothing against the contract: it is the contract.
      expect(await call(upstream.getUpstreamContract)).toMatchObject({ checked: false, violations: [] })
      expect(await call(upstream.clearUpstreamContract)).toEqual({ cleared: 0 })

      // The games: a transfer as the chain brings it, and the chain's state.
      const transfer = await call(emuTransfer, {
        body: {
          from_address: 'THHokCProneknUpbJfWrE2SzhgP11T1J1g',
          to_address: 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R',
          amount: '17',
        },
      })
      expect(transfer).toMatchObject({ status: 'bet', kind: 'big_small' })
      expect(Object.keys((await call(gamesChain)).cursors)).toHaveLength(5)

      // Sessions last: the rules they add would answer this player's calls in the scope.
      await call(control.failSession, { params: { token, fault: 'expire' }, query: scope })
      await call(control.sessionLifetime, { params: { token }, query: scope, body: { requests: 5 } })
      expect(await call(control.reset, { body: { scope: '*' } })).toEqual({ scope: '*' })

      expect(CONTROL_ENDPOINTS.map((e) => e.id).filter((id) => !answered.has(id))).toEqual([])
    } finally {
      await t.close()
      await rm(fixtures, { recursive: true, force: true })
    }
  }, 60_000)
})

for (const mode of ['emulator', 'proxy'] as const) {
  describe(`the journal over the wire, ${mode} mode`, () => {
    it('keeps headers and bodies redacted, filters on them and verifies call counts', async () => {
      live = await startLive(mode)
      const emu = emuClient({
        url: live.url,
        adminToken: live.adminHeaders['x-emu-admin-token'],
      }).withScope('journal')
      const player = await emu.login()
      const withdraw = (amount: string) =>
        fetch(`${live?.url}/api/api2/withdraw`, {
          method: 'POST',
          headers: {
            token: player.token,
            'x-emu-scope': 'journal',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ amount, address: 'TXaddress', pay_password: '123456' }),
        }).then((r) => r.text())
      await withdraw('20')
      await withdraw('30')

      const login = (await emu.requests({ path: '/api/login' })).entries[0]
      expect(login?.request?.body).toContain('13800138000')
      expect(login?.response?.body).toContain('"token":"[redacted]"')
      const text = JSON.stringify(await emu.requests())
      expect(text).not.toContain(player.token)
      expect(text).not.toContain('demo1234')
      expect(text).not.toContain('123456')

      expect(await emu.countRequests({ method: 'POST', body: 'amount=30' })).toBe(1)
      expect(await emu.countRequests({ body: ['amount~=^[23]0$', 'pay_password'] })).toBe(2)
      expect(await emu.countRequests({ header: 'content-type~=urlencoded' })).toBe(2)
      expect(
        (await emu.requests({ path: '/api/api2/withdraw', body: 'amount=20' })).entries.map(
          (e) => e.request?.body,
        ),
      ).toEqual(['amount=20&address=TXaddress&pay_password=%5Bredacted%5D'])

      expect(await emu.verify({ path: '/api/api2/withdraw', times: 2 })).toMatchObject({ ok: true, count: 2 })
      const miss = await emu.verify({ path: '/api/api2/withdraw', body: { amount: '20' }, atLeast: 2 })
      expect(miss).toMatchObject({ ok: false, count: 1, expected: 'at least 2' })
      await expect(emu.expectCalled({ path: '/api/api2/withdraw', times: 3 })).rejects.toThrow(
        /expected exactly 3 call\(s\).*journal has 2/,
      )
      // A regular expression that does not compile is refused in every form, never a 500.
      for (const url of [
        '/__emu/requests?body=amount~=(',
        '/__emu/requests?header=a%7E%3D%5B&body=amount',
        '/__emu/requests?query=x%7E%3D*',
      ]) {
        const bad = await getJson(`${live?.url}${url}`, { headers: live?.adminHeaders ?? {} })
        expect(bad.status, url).toBe(400)
        expect(bad.body.msg, url).toMatch(/regular expression/)
      }
      const badCount = await getJson(`${live?.url}/__emu/requests/count`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...live?.adminHeaders },
        body: JSON.stringify({ body: ['amount', 'amount~=(('] }),
      })
      expect(badCount.status).toBe(400)
      expect(badCount.body.msg).toMatch(/regular expression/)
    })
  })
}
