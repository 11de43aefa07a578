import type { UserInfo } from '../../../shared/contract/account'
import type { Db } from '../../db/database'

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
}

export const maskPhone = (phone: string): string =>
  phone.length <= 7 ? phone : `${phone.slice(0, 3)}***${phone.slice(-4)}`

export class AccountRepository {
  private readonly byId
  private readonly byPhone
  private readonly byInviteCode
  private readonly insertPlayer
  private readonly balances

  constructor(private readonly db: Db) {
    this.byId = db.prepare<[number], PlayerRow>('SELECT * FROM players WHERE id = ?')
    this.byPhone = db.prepare<[string], PlayerRow>('SELECT * FROM players WHERE phone = ?')
    this.byInviteCode = db.prepare<[string], PlayerRow>('SELECT * FROM players WHERE invite_code = ?')
    this.insertPlayer = db.prepare(
      `INSERT INTO players (phone, nickname, password_hash, invite_code, inviter_id, created_at)
       VALUES (@phone, @nickname, @passwordHash, @inviteCode, @inviterId, @at)`,
    )
    this.balances = db.prepare<[number], { balance_micro: number; trx_balance_micro: number }>(
      'SELECT balance_micro, trx_balance_micro FROM players WHERE id = ?',
    )
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
    return Number(this.insertPlayer.run(p).lastInsertRowid)
  }

  balancesOf(id: number): { balance_micro: number; trx_balance_micro: number } | undefined {
    return this.balances.get(id)
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
