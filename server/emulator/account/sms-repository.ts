import { randomInt } from 'node:crypto'
import type { Db } from '@server/db/database'

/** `excluded`: the protected withdrawal flow during a time-out or self-exclusion. */
export type SmsPurpose = 'register' | 'pay_password' | 'excluded' | 'reset_password'

/** Wrong guesses allowed before a code is burnt. */
const MAX_ATTEMPTS = 5

export interface SmsCodeRow {
  phone: string
  purpose: SmsPurpose
  code: string
  sent_at: number
  expires_at: number
  attempts: number
  used_at: number | null
}

export class SmsRepository {
  constructor(private readonly db: Db) {}

  latest(phone: string, purpose: SmsPurpose): SmsCodeRow | undefined {
    return this.db
      .prepare<[string, string], SmsCodeRow>('SELECT * FROM sms_codes WHERE phone = ? AND purpose = ?')
      .get(phone, purpose)
  }

  list(phone?: string): SmsCodeRow[] {
    return phone
      ? this.db
          .prepare<[string], SmsCodeRow>('SELECT * FROM sms_codes WHERE phone = ? ORDER BY sent_at DESC')
          .all(phone)
      : this.db.prepare<[], SmsCodeRow>('SELECT * FROM sms_codes ORDER BY sent_at DESC LIMIT 100').all()
  }

  /** A fresh 6-digit code replacing the previous one for this phone and purpose. */
  issue(phone: string, purpose: SmsPurpose, now: number, ttlMs: number): SmsCodeRow {
    const row: SmsCodeRow = {
      phone,
      purpose,
      code: String(randomInt(0, 1_000_000)).padStart(6, '0'),
      sent_at: now,
      expires_at: now + ttlMs,
      attempts: 0,
      used_at: null,
    }
    this.db
      .prepare(
        `INSERT INTO sms_codes (phone, purpose, code, sent_at, expires_at, attempts, used_at)
         VALUES (@phone, @purpose, @code, @sent_at, @expires_at, 0, NULL)
         ON CONFLICT (phone, purpose) DO UPDATE SET code = excluded.code, sent_at = excluded.sent_at,
           expires_at = excluded.expires_at, attempts = 0, used_at = NULL`,
      )
      .run(row)
    return row
  }

  /** Uses the code once; a wrong guess counts towards the limit. Call inside a transaction. */
  consume(phone: string, purpose: SmsPurpose, code: string, now: number): boolean {
    const row = this.latest(phone, purpose)
    if (!row || row.used_at !== null || row.expires_at <= now || row.attempts >= MAX_ATTEMPTS) return false
    if (row.code !== code) {
      this.db
        .prepare('UPDATE sms_codes SET attempts = attempts + 1 WHERE phone = ? AND purpose = ?')
        .run(phone, purpose)
      return false
    }
    this.db
      .prepare('UPDATE sms_codes SET used_at = ? WHERE phone = ? AND purpose = ?')
      .run(now, phone, purpose)
    return true
  }
}
