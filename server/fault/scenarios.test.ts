import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scenarioSchema } from '@shared/emu-control'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EmuClient } from '../../scripts/emu/emu-client'
import { ROOT_DIR } from '../paths'
import { handTimers } from '../test-support/action-timers'
import { DEMO } from '../test-support/test-app'
import { REAL_TIMERS } from './fault-actions'
import { type LiveServer, liveLogin, startLive } from './live-servers'
import { checkScenario, fillTemplate, loadScenarioFile, pick, ScenarioFileError } from './scenarios'

const DIR = join(ROOT_DIR, 'fixtures', 'scenarios')
const NAMED = [
  'session-expired',
  'session-revoked',
  'body-401',
  'timeout',
  'network-down',
  'slow-network',
  'flaky',
  'deposit-arrives',
  'withdrawal-rejected',
  'insufficient-balance',
  'new-player',
]

describe('scenario files', () => {
  it('ship at least the eleven the design names, each valid and named after its file', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.json'))
    expect(files.map((f) => f.replace(/\.json$/, ''))).toEqual(expect.arrayContaining(NAMED))
    for (const file of files) {
      const parsed = scenarioSchema.safeParse(JSON.parse(await readFile(join(DIR, file), 'utf8')))
      expect(parsed.error?.issues ?? [], file).toEqual([])
      expect(parsed.data?.name).toBe(file.replace(/\.json$/, ''))
    }
  })

  it("the tester's guide's example scenario is valid", async () => {
    const guide = await readFile(join(ROOT_DIR, 'docs', 'testing.md'), 'utf8')
    const example = /### Writing a scenario\s+```json\n([\s\S]*?)\n```/.exec(guide)?.[1]
    expect(example).toBeDefined()
    expect(scenarioSchema.safeParse(JSON.parse(example ?? '')).error?.issues ?? []).toEqual([])
  })

  it('a broken file is reported with its name and the field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scenarios-'))
    try {
      await writeFile(
        join(dir, 'bad.json'),
        JSON.stringify({ name: 'bad', description: 'x', rules: [{ action: { type: 'nope' } }] }),
      )
      await expect(loadScenarioFile(join(dir, 'bad.json'))).rejects.toThrow(ScenarioFileError)
      await expect(loadScenarioFile(join(dir, 'bad.json'))).rejects.toThrow(
        /bad\.json[\s\S]*rules\.0\.action/,
      )
    } finally {
      await rm(dir, { recursive: true })
    }
  })

  it('templates and picks', () => {
    expect(fillTemplate('/x/{{id}}/{{ id }}', { id: '7' })).toBe('/x/7/7')
    expect(() => fillTemplate('{{missing}}', {})).toThrow(/missing/)
    expect(pick({ data: { list: [{ id: 3 }] } }, 'data.list.0.id')).toBe(3)
    expect(pick({ data: null }, 'data.id')).toBeUndefined()
  })
})

/**
 * One call on its own connection: the body code, or the socket error. No time-out of its own: a
 * call the test means to give up on is ended when `giveUp` settles ('GIVEN_UP').
 */
function call(
  base: string,
  path: string,
  headers: Record<string, string>,
  giveUp?: Promise<unknown>,
): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}${path}`, { headers, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        text += c
      })
      res.on('end', () => {
        if (res.statusCode === 401) return resolve('HTTP 401')
        try {
          resolve((JSON.parse(text) as { code: number }).code)
        } catch {
          resolve('not json')
        }
      })
    })
    void giveUp?.then(() => req.destroy(Object.assign(new Error('given up'), { code: 'GIVEN_UP' })))
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'))
    req.end()
  })
}

describe('activating each scenario', () => {
  let live: LiveServer
  let emu: EmuClient
  beforeAll(async () => {
    live = await startLive('emulator')
    emu = new EmuClient({ url: live.url })
  }, 120_000)
  afterAll(async () => {
    await live.close()
  }, 120_000)
  beforeEach(async () => {
    await emu.reset({ all: true })
  })
  afterEach(() => {
    live.app.faults.actions.timers = REAL_TIMERS
  })

  const demo = async () => {
    const login = await liveLogin(live.url)
    const headers = { token: login.token }
    return {
      ...login,
      headers,
      balance: () => call(live.url, `/api/api/getBalance?player_id=${login.playerId}`, headers),
      json: async (path: string) => {
        const res = await fetch(`${live.url}${path}`, { headers })
        return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> }
      },
    }
  }

  it('session-expired: the next call with a token gets 10001, and the token stays dead', async () => {
    const p = await demo()
    const activation = await emu.activate('session-expired')
    expect(activation.vars.token).toBe('[redacted]')
    expect(await p.balance()).toBe(10001)
    expect(await p.balance()).toBe(10001)
    expect(await call(live.url, '/api/api2/announcement', {})).toBe(1)
    expect((await emu.state()).scenario).toBe('session-expired')
  })

  it('session-revoked: the next call with a token gets HTTP 401', async () => {
    const p = await demo()
    await emu.activate('session-revoked', { token: p.token })
    const other = await demo()
    expect(await other.balance()).toBe(1)
    expect(await p.balance()).toBe('HTTP 401')
  })

  it('body-401: the next call gets body code 401, then calls go through', async () => {
    const p = await demo()
    await emu.activate('body-401')
    expect(await p.balance()).toBe(401)
    expect(await p.balance()).toBe(1)
  })

  /** Resolves when the fault layer next fires a rule. */
  const nextFiring = () =>
    new Promise<void>((resolve) => {
      const off = live.app.faults.onFiring(() => {
        off()
        resolve()
      })
    })

  it('timeout: the next call is never answered; the one after is', async () => {
    const p = await demo()
    await emu.activate('timeout')
    // The hang fired: the call is held; the next one is answered while it still waits.
    const fired = nextFiring()
    let giveUp = () => {}
    const givenUp = new Promise<void>((resolve) => {
      giveUp = resolve
    })
    const hung = call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, p.headers, givenUp)
    await fired
    expect(await p.balance()).toBe(1)
    giveUp()
    expect(await hung).toBe('GIVEN_UP')
    const outcomes = (await emu.requests({ path: '/api/api/getBalance', limit: 2 })).entries.map(
      (e) => e.outcome,
    )
    expect(outcomes).toEqual(['hang', 'answered'])
  })

  it('network-down: every call is reset until reset', async () => {
    const p = await demo()
    await emu.activate('network-down')
    expect(await p.balance()).toBe('ECONNRESET')
    expect(await p.balance()).toBe('ECONNRESET')
    await emu.reset({ all: true })
    expect(await call(live.url, '/api/api2/announcement', {})).toBe(1)
  })

  it('slow-network: calls are held back 1.5–3 s', async () => {
    const p = await demo()
    const activation = await emu.activate('slow-network')
    const { timers, asked } = handTimers()
    live.app.faults.actions.timers = timers
    const held = asked()
    const out = call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, p.headers, held)
    const { ms, fire } = await held
    expect(ms).toBeGreaterThanOrEqual(1500)
    expect(ms).toBeLessThanOrEqual(3000)
    // Held until the delay is over: the client gives up first.
    expect(await out).toBe('GIVEN_UP')
    fire()
    const [ruleId] = activation.rules
    const rule = await emu.getFault(ruleId ?? '')
    expect(rule.action).toEqual({ type: 'delay', minMs: 1500, maxMs: 3000 })
    expect(rule.seed).toBe(20240601)
  })

  it('flaky: every third call fails once, the retry goes through', async () => {
    const p = await demo()
    await emu.activate('flaky')
    const seen: (number | string)[] = []
    for (let i = 0; i < 7; i++) seen.push(await p.balance())
    // The retry of the third call is not counted: the next failure is the seventh call.
    expect(seen).toEqual([1, 1, 503, 1, 1, 1, 503])
  })

  it('deposit-arrives: the balance grows by the amount, plus a first top-up bonus, and the deposit shows confirmed', async () => {
    const p = await demo()
    const before = await p.json(`/api/api/getBalance?player_id=${p.playerId}`)
    const activation = await emu.activate('deposit-arrives', { amount: '250' })
    expect(activation.steps.map((s) => s.code)).toEqual([1, 1, 1])
    const after = await p.json(`/api/api/getBalance?player_id=${p.playerId}`)
    // The demo player's first top-up also earns the 10% first-deposit bonus.
    expect(Number(after.data.balance) - Number(before.data.balance)).toBe(275)
    const history = await p.json('/api/api/getDepositHistory')
    expect(history.data.list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ order_no: activation.vars.orderNo, status: 'confirmed' }),
      ]),
    )
    // Reset returns to the seed.
    await emu.reset({ all: true })
    const again = await liveLogin(live.url)
    const seeded = await fetch(`${live.url}/api/api/getBalance?player_id=${again.playerId}`, {
      headers: { token: again.token },
    })
    expect(((await seeded.json()) as { data: { balance: string } }).data.balance).toBe(before.data.balance)
  })

  it('withdrawal-rejected: the withdrawal is rejected with the reason and the money comes back', async () => {
    const p = await demo()
    const before = await p.json(`/api/api/getBalance?player_id=${p.playerId}`)
    const activation = await emu.activate('withdrawal-rejected')
    const history = await p.json('/api/api/getWithdrawalHistory')
    expect(history.data.list).toEqual([
      expect.objectContaining({
        id: Number(activation.vars.withdrawalId),
        status: 'rejected',
        reason: '地址风险，审核未通过',
      }),
    ])
    const after = await p.json(`/api/api/getBalance?player_id=${p.playerId}`)
    expect(after.data.balance).toBe(before.data.balance)
    // Activating it again works: the address is already bound.
    await emu.activate('withdrawal-rejected')
  })

  it('insufficient-balance: the balance is 0.00 and a withdrawal is refused with 余额不足', async () => {
    const activation = await emu.activate('insufficient-balance')
    const p = await demo()
    expect((await p.json(`/api/api/getBalance?player_id=${p.playerId}`)).data.balance).toBe('0.00')
    const res = await fetch(`${live.url}/api/api2/withdraw`, {
      method: 'POST',
      headers: { ...p.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        wallet_id: activation.vars.walletId ?? '',
        amount: '10',
        pay_password: DEMO.payPassword,
      }),
    })
    expect(await res.json()).toMatchObject({ msg: '余额不足' })
  })

  it('new-player: a fresh account with an empty wallet and histories', async () => {
    const activation = await emu.activate('new-player')
    const { phone, password } = activation.vars
    expect(phone).toMatch(/^17\d{9}$/)
    const login = await liveLogin(live.url, {}, phone, password)
    const get = async (path: string) =>
      (
        (await (await fetch(`${live.url}${path}`, { headers: { token: login.token } })).json()) as {
          data: { balance?: string; list?: unknown[] }
        }
      ).data
    expect((await get(`/api/api/getBalance?player_id=${login.playerId}`)).balance).toBe('0.00')
    expect((await get('/api/api/getDepositHistory')).list).toEqual([])
    expect((await get('/api/api/getWithdrawalHistory')).list).toEqual([])
    expect((await get('/api/api2/wallets')).list).toEqual([])
  })

  it('a scoped activation touches only its scope', async () => {
    const p = await demo()
    const scoped = emu.withScope('tab-1')
    await scoped.activate('network-down')
    expect(
      await call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, {
        ...p.headers,
        'x-emu-scope': 'tab-1',
      }),
    ).toBe('ECONNRESET')
    expect(
      await call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, {
        ...p.headers,
        'x-emu-scope': 'tab-2',
      }),
    ).toBe(1)
    expect((await scoped.state()).scenario).toBe('network-down')
    expect((await emu.state()).scenario).toBeNull()
    await scoped.reset()
    expect(
      await call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, {
        ...p.headers,
        'x-emu-scope': 'tab-1',
      }),
    ).toBe(1)
  })

  it('a new activation replaces the previous one in its scope; the journal stays', async () => {
    const p = await demo()
    const scoped = emu.withScope('tab-3')
    const headers = { ...p.headers, 'x-emu-scope': 'tab-3' }
    expect(await call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, headers)).toBe(1)
    await scoped.activate('session-expired')
    await scoped.activate('body-401')
    expect(await call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, headers)).toBe(401)
    expect(await call(live.url, `/api/api/getBalance?player_id=${p.playerId}`, headers)).toBe(1)
    expect(await scoped.countRequests()).toBe(3)
    expect((await scoped.state()).scenario).toBe('body-401')
  })

  it('maintenance-window: a three-state machine per scope — 503, then late, then through', async () => {
    const p = await demo()
    const path = `/api/api/getBalance?player_id=${p.playerId}`
    for (const scope of ['sm-1', 'sm-2']) await emu.withScope(scope).activate('maintenance-window')
    const headers = (scope: string) => ({ ...p.headers, 'x-emu-scope': scope })
    expect(await call(live.url, path, headers('sm-1'))).toBe(503)
    expect(await emu.withScope('sm-1').states()).toEqual([
      { scope: 'sm-1', name: 'maintenance', state: 'recovering' },
    ])
    // The second call is held 2 s: the client gives up on it first.
    const { timers, asked } = handTimers()
    live.app.faults.actions.timers = timers
    const held = asked()
    expect(await call(live.url, path, headers('sm-1'), held)).toBe('GIVEN_UP')
    const { ms, fire } = await held
    expect(ms).toBe(2000)
    fire()
    expect(await call(live.url, path, headers('sm-1'))).toBe(1)
    expect((await emu.withScope('sm-1').states())[0]?.state).toBe('up')
    // The other scope's machine has not moved.
    expect((await emu.withScope('sm-2').states())[0]?.state).toBe('Started')
    expect(await call(live.url, path, headers('sm-2'))).toBe(503)
    // Moved back by hand, it starts over.
    await emu.withScope('sm-1').setState('maintenance', 'Started')
    expect(await call(live.url, path, headers('sm-1'))).toBe(503)
  })

  it('a failing step stops the activation with a message naming it; the old set-up stays', async () => {
    const scoped = emu.withScope('keeps')
    await scoped.activate('session-expired')
    const before = await scoped.state()
    const failed = scoped.activate('withdrawal-rejected', { amount: '1' })
    await expect(failed).rejects.toThrow(/步骤 4 \(withdraw\)/)
    // The demo player's address was bound by the seed ("already bound"): nothing to undo.
    await expect(failed).rejects.toThrow(/没有留下任何改动/)
    const after = await scoped.state()
    expect(after.scenario).toBe('session-expired')
    expect(after.sessionFaults).toEqual(before.sessionFaults)
    expect(after.sessionFaults).toHaveLength(1)
    // Neither activation has a clock: the scope still reads the world's.
    expect((await scoped.clock()).scope).toBeNull()
    await expect(emu.activate('no-such-scenario')).rejects.toMatchObject({ status: 404 })
  })

  it('a step that fails after others changed data: each change with an undo is undone, the rest named', async () => {
    const p = await demo()
    const wallets = async () =>
      ((await p.json('/api/api2/wallets')).data.list as { address: string }[]).map((w) => w.address)
    const before = await wallets()
    // A new address is bound (code 1), then the withdrawal is refused: the address goes again.
    const failed = emu.activate('withdrawal-pending', {
      address: 'TTbh7qmTJjhe5cRQjWHqLg1nDh7nZdED1R',
      amount: '99999',
    })
    await expect(failed).rejects.toThrow(/步骤 4 \(withdraw\) 失败/)
    await expect(failed).rejects.toThrow(/已撤销：\n {2}步骤 2 \(bind the address.*删除绑定的地址 TTbh7q/)
    await expect(failed).rejects.toThrow(/没有留下任何改动/)
    expect(await wallets()).toEqual(before)
  })
})

describe('scenarios in proxy mode', () => {
  let live: LiveServer
  /** The shipped scenarios, and one whose last step fails after a withdrawal. */
  let fixtures: string
  beforeAll(async () => {
    fixtures = await mkdtemp(join(tmpdir(), 'proxy-scenarios-'))
    await cp(DIR, join(fixtures, 'scenarios'), { recursive: true })
    const pending = JSON.parse(await readFile(join(DIR, 'withdrawal-pending.json'), 'utf8')) as {
      steps: unknown[]
      params: Record<string, string>
    }
    await writeFile(
      join(fixtures, 'scenarios', 'withdrawal-then-check.json'),
      JSON.stringify({
        ...pending,
        name: 'withdrawal-then-check',
        description: 'withdrawal-pending, then a check that fails',
        params: { ...pending.params, address: 'TCGiqPXkZctFdxZuJbrnpKCS9KgBk2rnmv', amount: '10' },
        steps: [
          ...pending.steps,
          { name: 'check', url: '/api/api2/wallets', auth: 'token', expectCode: [99] },
        ],
      }),
    )
    // Whose clock would go back, and whose session is no token: both found before any step runs.
    await writeFile(
      join(fixtures, 'scenarios', 'refused-late.json'),
      JSON.stringify({
        name: 'refused-late',
        description: 'a login, then a clock in the past and a session that is no token',
        steps: [
          {
            method: 'POST',
            url: '/api/login',
            multipart: { phone: '13800138000', password: 'demo1234' },
            save: { token: 'data.token' },
          },
        ],
        clock: { mode: 'frozen', at: 0 },
        sessions: [{ token: 'not a token', fault: 'expire' }],
      }),
    )
    live = await startLive('proxy', { FIXTURES_DIR: fixtures })
  }, 120_000)
  afterAll(async () => {
    await live.close()
    await rm(fixtures, { recursive: true, force: true })
  }, 120_000)

  it('apply rules and session faults on the proxy; steps that need the emulator say so', async () => {
    const emu = new EmuClient({ url: live.url, adminToken: live.adminHeaders['x-emu-admin-token'] })
    const player = await liveLogin(live.url)
    await emu.activate('session-expired')
    expect(
      await call(live.url, `/api/api/getBalance?player_id=${player.playerId}`, { token: player.token }),
    ).toBe(10001)
    // The upstream itself never saw the token fail.
    expect(
      await call(live.upstreamUrl, `/api/api/getBalance?player_id=${player.playerId}`, {
        token: player.token,
      }),
    ).toBe(1)
    // All or nothing: refused before the first step, so the upstream never saw a call.
    const upstream = new EmuClient({ url: live.upstreamUrl })
    const before = await upstream.countRequests({ method: 'POST' })
    const refused = emu.activate('deposit-arrives')
    await expect(refused).rejects.toThrow(/未执行，没有任何改动/)
    await expect(refused).rejects.toThrow(/步骤 3 \(the chain confirms it\) 需要模拟器的数据/)
    await expect(refused).rejects.toThrow(/步骤 2 .*会在真实上游改动数据/)
    expect(await upstream.countRequests({ method: 'POST' })).toBe(before)
    expect((await emu.state()).scenario).toBe('session-expired')
  })

  it('refuse data steps without allowData, and unknown variables, before anything runs', () => {
    const scenario = scenarioSchema.parse({
      name: 'pay',
      description: 'd',
      steps: [
        {
          method: 'POST',
          url: '/api/login',
          multipart: { phone: '13800138000', password: 'demo1234' },
          save: { token: 'data.token' },
        },
        { method: 'GET', url: '/api/api/getBalance?player_id={{player}}', auth: 'token' },
        {
          method: 'POST',
          url: '/api/api2/withdraw',
          form: { wallet_id: '1', amount: '{{amount}}', pay_password: '123456' },
          auth: 'token',
        },
      ],
    })
    expect(checkScenario(scenario, ['player', 'amount'], { emulated: true })).toEqual([])
    const proxy = checkScenario(scenario, ['player', 'amount'], { emulated: false })
    expect(proxy).toHaveLength(1)
    expect(proxy[0]).toMatch(/步骤 3 .*allowData/)
    expect(checkScenario(scenario, ['player', 'amount'], { emulated: false, allowData: true })).toEqual([])
    expect(checkScenario(scenario, ['amount'], { emulated: true })).toEqual([
      '步骤 2 (GET /api/api/getBalance?player_id={{player}}) 用到未定义的变量 player',
    ])
  })

  it('of the shipped scenarios, those without steps and withdrawal-pending run in proxy mode (the guide says so)', async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.json'))
    for (const file of files) {
      const scenario = await loadScenarioFile(join(DIR, file))
      expect(checkScenario(scenario, Object.keys(scenario.params), { emulated: true }), file).toEqual([])
      const proxied = checkScenario(scenario, Object.keys(scenario.params), {
        emulated: false,
        allowData: true,
      })
      expect(proxied.length === 0, file).toBe(
        scenario.steps.length === 0 || scenario.name === 'withdrawal-pending',
      )
    }
  })

  it('check every step against its contract before anything runs; a templated field waits', () => {
    const scenario = scenarioSchema.parse({
      name: 'typos',
      description: 'd',
      steps: [
        { method: 'POST', url: '/api/login', multipart: { phone: '1' }, save: { token: 'data.token' } },
        {
          method: 'POST',
          url: '/api/api2/withdraw',
          form: { amount: '{{amount}}', wallet: '1' },
          auth: 'token',
        },
        { method: 'POST', url: '/api/api2/nothing' },
        { method: 'GET', url: '/api/api2/withdraw', auth: 'token' },
        { method: 'GET', url: '/api/api2/wallets' },
        { method: 'POST', url: '/__emu/withdrawals/{{id}}/reject', json: { reason: 5 } },
        { method: 'POST', url: '/__emu/withdrawals/{{id}}/reject', json: { reason: '{{why}}' } },
      ],
    })
    const problems = checkScenario(scenario, ['amount', 'id', 'why'], { emulated: true })
    expect(problems).toEqual([
      expect.stringMatching(/^步骤 1 .*字段 phone: /),
      expect.stringMatching(/^步骤 1 .*字段 password: /),
      expect.stringMatching(/^步骤 2 .*字段 wallet_id: /),
      expect.stringMatching(/^步骤 2 .*字段 pay_password: /),
      expect.stringMatching(/^步骤 2 .*字段: .*wallet/),
      '步骤 3 (POST /api/api2/nothing) 不是已知的接口: /api/api2/nothing',
      '步骤 4 (GET /api/api2/withdraw) 用了 GET，这个接口要 POST',
      '步骤 5 (GET /api/api2/wallets) 需要登录：给 auth（保存 token 的变量名）',
      expect.stringMatching(/^步骤 6 .*字段 reason: /),
    ])
  })

  it('refuse a clock that would go back and a session that is no token before the first step', async () => {
    const emu = new EmuClient({ url: live.url, adminToken: live.adminHeaders['x-emu-admin-token'] })
    const upstream = new EmuClient({ url: live.upstreamUrl })
    const logins = await upstream.countRequests({ path: '/api/login' })
    const refused = emu.activate('refused-late') // the world clock: it may not go back
    await expect(refused).rejects.toThrow(/未执行，没有任何改动/)
    await expect(refused).rejects.toThrow(/世界时钟不能往回拨/)
    await expect(refused).rejects.toThrow(/会话 not a token: 不是会话 token/)
    expect(await upstream.countRequests({ path: '/api/login' })).toBe(logins)
    expect((await emu.clock()).mode).toBe('real')
  })

  it('steps that change data upstream: allowed, they run; a later failure undoes what can be undone and names the rest', async () => {
    const emu = new EmuClient({ url: live.url, adminToken: live.adminHeaders['x-emu-admin-token'] })
    const scoped = emu.withScope('upstream-data')
    await scoped.activate('session-revoked')
    const player = await liveLogin(live.upstreamUrl)
    const upstream = async (path: string) => {
      const res = await fetch(`${live.upstreamUrl}${path}`, { headers: { token: player.token } })
      return ((await res.json()) as { data: { list: { address: string; status?: string }[] } }).data.list
    }
    const addresses = async () => (await upstream('/api/api2/wallets')).map((w) => w.address)
    const before = await addresses()

    // Refused as a whole without allowData: nothing reaches the upstream.
    await expect(scoped.activate('withdrawal-pending')).rejects.toThrow(/allowData/)
    expect(await addresses()).toEqual(before)

    // The withdrawal is refused upstream: the address the scenario bound is deleted again, and the
    // scope keeps its old scenario.
    const failed = scoped.activate(
      'withdrawal-pending',
      { address: 'TTYt4JnPCTLk1dhZit4LuyZtET8mUQp3eq', amount: '99999' },
      { allowData: true },
    )
    await expect(failed).rejects.toThrow(/步骤 4 \(withdraw\) 失败/)
    await expect(failed).rejects.toThrow(/已撤销：\n {2}步骤 2 .*删除绑定的地址 TTYt4J/)
    await expect(failed).rejects.toThrow(/没有留下任何改动/)
    expect(await addresses()).toEqual(before)
    expect((await scoped.state()).scenario).toBe('session-revoked')

    // With a step after the withdrawal failing, the withdrawal stays upstream (there is no undo
    // for it) and the refusal says so.
    const failedLater = scoped.activate('withdrawal-then-check', {}, { allowData: true })
    await expect(failedLater).rejects.toThrow(/步骤 5 \(check\) 失败/)
    await expect(failedLater).rejects.toThrow(
      /仍然留下：\n {2}步骤 4 \(withdraw\): POST \/api\/api2\/withdraw — 没有撤销的办法，改动仍在上游/,
    )
    await expect(failedLater).rejects.toThrow(/已撤销：\n {2}步骤 2 .*删除绑定的地址 TCGiqP/)
    expect(await addresses()).toEqual(before)
    const pending = await upstream('/api/api/getWithdrawalHistory')
    expect(pending[0]?.status).toBe('pending')
    expect((await scoped.state()).scenario).toBe('session-revoked')

    // Allowed and fine: the withdrawal reaches the upstream and the scenario is the scope's.
    const done = await scoped.activate('withdrawal-pending', {}, { allowData: true })
    expect(done.steps.map((s) => s.code)).toEqual([1, 1, 1, 1])
    expect((await upstream('/api/api/getWithdrawalHistory'))[0]).toMatchObject({
      id: Number(done.vars.withdrawalId),
    })
    expect((await scoped.state()).scenario).toBe('withdrawal-pending')
  })
})
