import { userInfo } from '@shared/contract/account'
import { currentRound } from '@shared/contract/games'
import { MockAgent } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { loadAdapter } from './adapter'
import { UpstreamCallError, UpstreamClient } from './upstream-client'

/** The server's own upstream calls, against undici's mock pool: what each kind of answer comes to. */

const ORIGIN = 'http://upstream.test'
let agent: MockAgent
afterEach(async () => agent?.close())

function setUp(adapterYaml?: string) {
  agent = new MockAgent()
  agent.disableNetConnect()
  const pool = agent.get(ORIGIN)
  const client = new UpstreamClient({
    dispatcher: pool,
    adapter: adapterYaml ? loadAdapter('test.yaml', adapterYaml) : null,
    timeoutMs: 1_000,
  })
  return { pool, client }
}

const INFO = {
  player_id: 9,
  nickname: '玩家九',
  phone: '138***8000',
  invite_code: 'MK9',
  has_pay_password: true,
  vip_level: 2,
  created_at: 1,
}

describe('UpstreamClient', () => {
  it('sends the contract’s call and reads a success into the endpoint’s data', async () => {
    const { pool, client } = setUp()
    pool
      .intercept({ path: '/api/users/info?player_id=9', method: 'GET', headers: { token: 'tok' } })
      .reply(200, { code: 1, msg: 'ok', data: { ...INFO, extra: 'dropped' } })
    const out = await client.call(userInfo, { player_id: '9' }, { token: 'tok' })
    expect(out).toEqual({ kind: 'ok', data: INFO })
  })

  it('tells a lost session, a refusal and a missing endpoint apart', async () => {
    const { pool, client } = setUp()
    pool
      .intercept({ path: '/api/users/info?player_id=1', method: 'GET' })
      .reply(200, { code: 401, msg: '请先登录' })
    pool
      .intercept({ path: '/api/users/info?player_id=2', method: 'GET' })
      .reply(200, { code: 4002, msg: '用户不匹配' })
    pool.intercept({ path: '/api/users/info?player_id=3', method: 'GET' }).reply(404, 'not here')
    expect(await client.call(userInfo, { player_id: '1' })).toMatchObject({ kind: 'session_lost', code: 401 })
    expect(await client.call(userInfo, { player_id: '2' })).toEqual({
      kind: 'refused',
      code: 4002,
      msg: '用户不匹配',
    })
    expect(await client.call(userInfo, { player_id: '3' })).toEqual({ kind: 'missing', status: 404 })
  })

  it('throws on a 5xx, an answer that is not JSON, and data outside the contract', async () => {
    const { pool, client } = setUp()
    pool.intercept({ path: '/api/games/round?game=qukuai', method: 'GET' }).reply(503, 'busy')
    pool.intercept({ path: '/api/games/round?game=qukuai', method: 'GET' }).reply(200, '<html>')
    pool
      .intercept({ path: '/api/games/round?game=qukuai', method: 'GET' })
      .reply(200, { code: 1, msg: 'ok', data: { game: 'qukuai', round_id: 7 } })
    for (const kind of ['status', 'shape', 'shape'] as const) {
      const err = await client.call(currentRound, { game: 'qukuai' }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(UpstreamCallError)
      expect((err as UpstreamCallError).kind).toBe(kind)
    }
  })

  it('goes through the adapter both ways', async () => {
    const { pool, client } = setUp(
      [
        'envelope: { code: code, message: message, success: [200], sessionLost: [401] }',
        'endpoints:',
        '  userInfo:',
        '    path: /api/user/info',
        '    request: { rename: { player_id: uid } }',
        '    answer: { rename: { playerId: player_id } }',
      ].join('\n'),
    )
    const { player_id, ...rest } = INFO
    pool
      .intercept({ path: '/api/user/info?uid=9', method: 'GET' })
      .reply(200, { code: 200, message: 'ok', data: { playerId: player_id, ...rest } })
    pool
      .intercept({ path: '/api/user/info?uid=8', method: 'GET' })
      .reply(200, { code: 401, message: '请先登录' })
    expect(await client.call(userInfo, { player_id: '9' })).toEqual({ kind: 'ok', data: INFO })
    expect(await client.call(userInfo, { player_id: '8' })).toMatchObject({ kind: 'session_lost' })
  })
})
