import { immediate } from '@server/db/database'
import { createTestApp, type TestApp } from '@server/test-support/test-app'
import type { InjectOptions } from 'fastify'
import type { GamesDomain } from './games-domain'

/** Where the games tests freeze the clock: half a second into 12:00 in UTC+8 (04:00 UTC). */
export const T0 = Date.UTC(2026, 10, 22, 4, 0, 0) + 500

// biome-ignore lint/suspicious/noExplicitAny: test helpers read envelopes loosely
export type Env = { code: number; msg?: string; data: any }

export interface GamesKit {
  readonly t: TestApp
  readonly games: GamesDomain
  /** Tokens and ids of the players, the seeded two first. */
  readonly players: { token: string; playerId: number }[]
  call(opts: InjectOptions & { url: string }): Promise<Env>
  balanceMicro(playerId: number): number
}

/** A test app with the games on a short chain, the clock frozen at `at`, and `extra` more funded players. */
export async function gamesKit(at: number, extra = 2, env: Record<string, string> = {}): Promise<GamesKit> {
  const settings = { GAME_CHAIN_LENGTH: '10000', ...env }
  const t = await createTestApp(settings)
  t.clock.freeze(at)
  const call = async (opts: InjectOptions & { url: string }): Promise<Env> =>
    (await t.app.inject(opts)).json()
  const players = [await t.login(), await t.login('13900139000', 'friend1234')]
  for (let i = 0; i < extra; i++) {
    const phone = `1370000000${i}`
    const form = (body: Record<string, string>) => ({
      payload: new URLSearchParams(body).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await call({ method: 'POST', url: '/api/sms/send', ...form({ phone, purpose: 'register' }) })
    const sms = await call({ method: 'GET', url: `/__emu/sms?phone=${phone}` })
    const reg = await call({
      method: 'POST',
      url: '/api/users/register',
      ...form({ phone, code: sms.data[0].code, password: 'player1234' }),
    })
    if (reg.code !== 1) throw new Error(`register failed: ${reg.msg}`)
    players.push(await t.login(phone, 'player1234'))
  }
  const db = t.app.emu.db
  return {
    t,
    games: t.app.emu.games,
    players,
    call,
    balanceMicro: (id) =>
      db.prepare('SELECT balance_micro FROM players WHERE id = ?').pluck().get(id) as number,
  }
}

/** Credits a player through the ledger, as a bonus. */
export function fund(kit: GamesKit, playerId: number, micro: number): void {
  const { db, ledger, clock } = kit.t.app.emu
  immediate(db, () =>
    ledger.post({ playerId, currency: 'USDT', type: 'bonus', amountMicro: micro, at: clock.now() }),
  )
}

/** A small seeded generator, so a failing run can be replayed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = s
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}
