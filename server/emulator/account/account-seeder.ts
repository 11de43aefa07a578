import { toMicro } from '@shared/money'
import { z } from 'zod'
import { loadFixture } from '../fixtures'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { Seeder } from '../seed'
import type { AccountRepository } from './account-repository'
import { hashPassword } from './passwords'

const amount = z.string().regex(/^\d+(\.\d{1,6})?$/)

export const playersFixtureSchema = z.strictObject({
  players: z
    .array(
      z.strictObject({
        phone: z.string().regex(/^\+?\d{6,15}$/),
        password: z.string().min(8),
        pay_password: z
          .string()
          .regex(/^\d{6}$/)
          .optional(),
        nickname: z.string().min(1),
        invite_code: z.string().regex(/^[A-Z0-9]{6,10}$/),
        inviter: z.string().optional(),
        vip_level: z.number().int().min(0).default(0),
        balance: amount.default('0'),
        trx_balance: amount.default('0'),
      }),
    )
    .min(1),
})

/** Hashing is the slow part of a reset; the same fixture password always gives a usable hash. */
const hashCache = new Map<string, Promise<string>>()
const cachedHash = (password: string): Promise<string> => {
  let h = hashCache.get(password)
  if (!h) {
    h = hashPassword(password)
    hashCache.set(password, h)
  }
  return h
}

/** The fixture's players, their opening balances (through the ledger) and who invited whom. */
export const accountSeeder =
  (accounts: AccountRepository, ledger: LedgerRepository): Seeder =>
  async ({ fixturesDir, now }) => {
    const { players } = loadFixture(fixturesDir, 'players.json', playersFixtureSchema)
    const hashed = await Promise.all(
      players.map(async (p) => ({
        ...p,
        passwordHash: await cachedHash(p.password),
        payHash: p.pay_password ? await cachedHash(p.pay_password) : null,
      })),
    )
    return () => {
      const ids = new Map<string, number>()
      for (const p of hashed) {
        const id = accounts.create({
          phone: p.phone,
          nickname: p.nickname,
          passwordHash: p.passwordHash,
          payPasswordHash: p.payHash,
          inviteCode: p.invite_code,
          inviterId: null,
          vipLevel: p.vip_level,
          at: now,
        })
        ids.set(p.invite_code, id)
        // Opening balances arrive as a bonus through the ledger, like any other credit.
        for (const [currency, value] of [
          ['USDT', p.balance],
          ['TRX', p.trx_balance],
        ] as const) {
          const micro = toMicro(value)
          if (micro > 0)
            ledger.post({
              playerId: id,
              currency,
              type: 'bonus',
              amountMicro: micro,
              memo: '开户赠送',
              at: now,
            })
        }
      }
      for (const p of hashed) {
        if (!p.inviter) continue
        const id = ids.get(p.invite_code)
        const inviterId = ids.get(p.inviter)
        if (inviterId === undefined) throw new Error(`fixture players.json: unknown inviter ${p.inviter}`)
        if (id !== undefined) accounts.setInviter(id, inviterId)
      }
    }
  }

/** The demo login the README and the start-up log print. */
export function demoLogin(fixturesDir: string): {
  phone: string
  password: string
  payPassword: string | undefined
} {
  const { players } = loadFixture(fixturesDir, 'players.json', playersFixtureSchema)
  const [demo] = players
  if (!demo) throw new Error('fixture players.json has no players')
  return { phone: demo.phone, password: demo.password, payPassword: demo.pay_password }
}
