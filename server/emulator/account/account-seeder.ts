import { toMicro } from '@shared/money'
import { z } from 'zod'
import { loadFixture } from '../fixtures'
import { LedgerRepository } from '../ledger/ledger-repository'
import type { Seeder } from '../seed'
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

export const announcementsFixtureSchema = z.strictObject({
  announcements: z.array(
    z.strictObject({
      title: z.string().min(1),
      content: z.string().min(1),
      pinned: z.boolean().default(false),
      published_hours_ago: z.number().min(0),
    }),
  ),
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

export const accountSeeder: Seeder = async ({ fixturesDir, now }) => {
  const { players } = loadFixture(fixturesDir, 'players.json', playersFixtureSchema)
  const { announcements } = loadFixture(fixturesDir, 'announcements.json', announcementsFixtureSchema)
  const hashed = await Promise.all(
    players.map(async (p) => ({
      ...p,
      passwordHash: await cachedHash(p.password),
      payHash: p.pay_password ? await cachedHash(p.pay_password) : null,
    })),
  )
  return (db) => {
    const ledger = new LedgerRepository(db)
    const insert = db.prepare(
      `INSERT INTO players (phone, nickname, password_hash, pay_password_hash, invite_code, vip_level, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    const ids = new Map<string, number>()
    for (const p of hashed) {
      const id = Number(
        insert.run(p.phone, p.nickname, p.passwordHash, p.payHash, p.invite_code, p.vip_level, now)
          .lastInsertRowid,
      )
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
      const inviterId = ids.get(p.inviter)
      if (inviterId === undefined) throw new Error(`fixture players.json: unknown inviter ${p.inviter}`)
      db.prepare('UPDATE players SET inviter_id = ? WHERE invite_code = ?').run(inviterId, p.invite_code)
    }
    const ann = db.prepare(
      'INSERT INTO announcements (title, content, pinned, published_at) VALUES (?, ?, ?, ?)',
    )
    for (const a of announcements)
      ann.run(a.title, a.content, a.pinned ? 1 : 0, now - a.published_hours_ago * 3_600_000)
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
