import type { Db } from '@server/db/database'
import { ReadCache } from '@server/db/read-cache'
import type { UserInfo } from '@shared/contract/account'
import { maskPhone } from '@shared/mask'
import type { BalanceGeneration } from '../ledger/ledger-repository'

/**
 * How long a balance read is reused while no posting is written in this process. Postings here
 * end it at once; the lifetime bounds how long a posting by another process on the same database
 * goes unseen (as for sessions).
 */
const BALANCE_CACHE_MS = 1_000

type Balances = { balance_micro: number; trx_balance_micro: number }

export interface PlayerRow {
  id: number
  phone: string
  nickname: string
  password_hash: string
  pay_password_hash: string | null
  invite_code: string
  inviter_id: number | null
  vip_level: number
  balance_micro: number
  trx_balance_micro: number
  created_at: number
}

export interface NewPlayer {
  phone: string
  nickname: string
  passwordHash: string
  inviteCode: string
  inviterId: number | null
  at: number
  /** Seeded players may start with a payment password and a VIP level; registered ones never do. */
  payPasswordHash?: string | null
  vipLevel?: number
}

export class AccountRepository {
  private readonly byId
  private readonly byPhone
  private readonly byInviteCode
  private readonly insertPlayer
  private readonly balances
  /** Balances read recently: the balance is the most polled read, and each read is a transaction. */
  private readonly balanceCache = new ReadCache<number, { row: Balances; generation: number }>(
    BALANCE_CACHE_MS,
  )

  /** `ledger`: the one ledger balances move through, whose generation tells a cached balance is stale. */
  constructor(
    private readonly db: Db,
    private readonly ledger: BalanceGeneration,
  ) {
    this.byId = db.prepare<[number], PlayerRow>('SELECT * FROM players WHERE id = ?')
    this.byPhone = db.prepare<[string], PlayerRow>('SELECT * FROM players WHERE phone = ?')
    this.byInviteCode = db.prepare<[string], PlayerRow>('SELECT * FROM players WHERE invite_code = ?')
    this.insertPlayer = db.prepare(
      `INSERT INTO players (phone, nickname, password_hash, pay_password_hash, invite_code, inviter_id, vip_level, created_at)
       VALUES (@phone, @nickname, @passwordHash, @payPasswordHash, @inviteCode, @inviterId, @vipLevel, @at)`,
    )
    this.balances = db.prepare<[number], Balances>(
      'SELECT balance_micro, trx_balance_micro FROM players WHERE id = ?',
    )
  }

  /** Whether any player exists: a database without one has not been seeded. */
  anyPlayer(): boolean {
    return this.db.prepare('SELECT 1 FROM players LIMIT 1').get() !== undefined
  }

  findById(id: number): PlayerRow | undefined {
    return this.byId.get(id)
  }

  findByPhone(phone: string): PlayerRow | undefined {
    return this.byPhone.get(phone)
  }

  findByInviteCode(code: string): PlayerRow | undefined {
    return this.byInviteCode.get(code)
  }

  inviteCodeTaken(code: string): boolean {
    return this.byInviteCode.get(code) !== undefined
  }

  create(p: NewPlayer): number {
    return Number(this.insertPlayer.run({ payPasswordHash: null, vipLevel: 0, ...p }).lastInsertRowid)
  }

  setInviter(id: number, inviterId: number): void {
    this.db.prepare('UPDATE players SET inviter_id = ? WHERE id = ?').run(inviterId, id)
  }

  /** The player's balances; reused for up to BALANCE_CACHE_MS unless a posting was written meanwhile. */
  balancesOf(id: number): Balances | undefined {
    const generation = this.ledger.generation
    const wall = Date.now()
    const cached = this.balanceCache.get(id, wall)
    if (cached && cached.generation === generation) return cached.row
    const row = this.balances.get(id)
    // Inside a transaction the row may not be committed yet: never remember it.
    if (row && !this.db.inTransaction) this.balanceCache.set(id, { row, generation }, wall)
    else this.balanceCache.delete(id)
    return row
  }

  /** The USDT balance as stored now (not cached): for checks that must see the latest write. */
  usdtBalanceOf(id: number): number | undefined {
    return this.balances.get(id)?.balance_micro
  }

  /** The payment password's hash; null when none is set, undefined for an unknown player. */
  payPasswordHashOf(id: number): string | null | undefined {
    return this.byId.get(id)?.pay_password_hash
  }

  setPasswordHash(id: number, passwordHash: string): void {
    this.db.prepare('UPDATE players SET password_hash = ? WHERE id = ?').run(passwordHash, id)
  }

  setPayPasswordHash(id: number, payPasswordHash: string): void {
    this.db.prepare('UPDATE players SET pay_password_hash = ? WHERE id = ?').run(payPasswordHash, id)
  }

  static toUserInfo(row: PlayerRow): UserInfo {
    return {
      player_id: row.id,
      nickname: row.nickname,
      phone: maskPhone(row.phone),
      invite_code: row.invite_code,
      has_pay_password: row.pay_password_hash !== null,
      vip_level: row.vip_level,
      created_at: row.created_at,
    }
  }
}
