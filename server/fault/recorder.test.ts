import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { scenarioSchema } from '@shared/emu-control'
import { afterEach, describe, expect, it } from 'vitest'
import { EmuClient } from '../../scripts/emu/emu-client'
import { type LiveServer, startLive } from './live-servers'

let live: LiveServer | undefined
let dir: string | undefined
afterEach(async () => {
  await live?.close()
  live = undefined
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('record mode', () => {
  it('in proxy mode saves what the upstream answered into a scenario that replays it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-record-'))
    await mkdir(join(dir, 'scenarios'))
    live = await startLive('proxy', { FIXTURES_DIR: dir })
    const emu = new EmuClient({
      url: live.url,
      adminToken: live.adminHeaders['x-emu-admin-token'],
    }).withScope('rec')
    const player = await emu.login()
    const balance = () =>
      fetch(`${live?.url}/api/api/getBalance?player_id=${player.playerId}`, {
        headers: { token: player.token, 'x-emu-scope': 'rec' },
      }).then((r) => r.json() as Promise<{ code: number; data: { balance: string } }>)

    await emu.record({ name: 'recorded-balance', match: { path: '/api/api/**' } })
    await expect(emu.record({ name: 'again' })).rejects.toMatchObject({ status: 409 })
    expect((await balance()).data.balance).toBe('1000.00')
    await fetch(`${live.url}/api/api2/announcement`, { headers: { 'x-emu-scope': 'rec' } }).then((r) =>
      r.text(),
    )
    // A call a fault answered is not what the upstream said: not recorded.
    await emu.fault('/api/api/getBalance', { type: 'envelope', code: 9 }, { times: 1 })
    await balance()
    expect((await balance()).data.balance).toBe('1000.00')
    const done = await emu.stopRecording()
    expect(done).toMatchObject({ name: 'recorded-balance', recorded: 2 })

    const file = scenarioSchema.parse(
      JSON.parse(await readFile(join(dir, 'scenarios', 'recorded-balance.json'), 'utf8')),
    )
    expect(file.rules.map((r) => [r.match.path, r.match.nth ?? null])).toEqual([
      ['/api/api/getBalance', 1],
      ['/api/api/getBalance', 2],
      ['/api/api/getBalance', null],
    ])
    expect(file.rules[0]?.match.query).toEqual({ player_id: String(player.playerId) })
    expect(file.rules[0]?.action).toMatchObject({ type: 'status', status: 200, body: { code: 1 } })
    // Writing the same name again is refused unless asked.
    await expect(emu.record({ name: 'recorded-balance' })).rejects.toThrow(/overwrite/)

    // Replayed as a scenario: the answer now comes from the stub rules.
    await emu.activate('recorded-balance')
    expect((await balance()).data.balance).toBe('1000.00')
    expect(await emu.countRequests({ path: '/api/api/getBalance', unmatched: false })).toBeGreaterThan(0)
  })
})

describe('templated answers', () => {
  it('fill in the path, a query parameter, a body field, a counter and the emulator clock', async () => {
    live = await startLive('emulator')
    const emu = new EmuClient({ url: live.url }).withScope('tpl')
    const frozen = await emu.freezeClock(1_900_000_000_000)
    await emu.addFault({
      match: { method: 'POST', path: '/api/api2/withdraw' },
      action: {
        type: 'envelope',
        code: 1,
        msg: '提现 {{request.body.amount}} 已受理',
        data: {
          n: '{{counter}}',
          at: '{{now}}',
          path: '{{request.path}}',
          who: '{{request.query.player_id}}',
        },
        template: true,
      },
    })
    const call = (amount: string) =>
      fetch(`${live?.url}/api/api2/withdraw?player_id=7`, {
        method: 'POST',
        headers: { 'x-emu-scope': 'tpl', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ amount }),
      }).then((r) => r.json())
    expect(await call('20')).toEqual({
      code: 1,
      msg: '提现 20 已受理',
      data: { n: 1, at: frozen.now, path: '/api/api2/withdraw', who: '7' },
    })
    expect(await call('35')).toMatchObject({ msg: '提现 35 已受理', data: { n: 2 } })
  })
})
