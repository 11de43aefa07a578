import { randomInt } from 'node:crypto'
import type { Config } from '@server/config'
import { type Db, immediate } from '@server/db/database'
import { ApiError, fail, invalidInput } from '@server/http/api-error'
import { type Publish, player, publishNothing } from '@server/realtime/event-hub'
import type { UserInfo } from '@shared/contract/account'
import { PASSWORD_MSG } from '@shared/contract/fields'
import { CODE } from '@shared/envelope'
import { maskPhone } from '@shared/mask'
import { SERVER_MSG } from '@shared/messages'
import { formatMoney } from '@shared/money'
import type { FastifyBaseLogger } from 'fastify'
import type { EmuClock } from '../clock'
import type { BalanceGeneration } from '../ledger/ledger-repository'
import type { ProtectionGuard } from '../protection/protection-guard'
import { AccountRepository, type PlayerRow } from './account-repository'
import { isCommonPassword } from './common-passwords'
import { type GuardLimits, type GuardMessages, PasswordGuard, signInMatches } from './password-guard'
import { hashPassword } from './passwords'
import { SessionRepository } from './session-repository'
import { type SmsPurpose, SmsRepository } from './sms-repository'

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/**
 * The login password checked anywhere but at login (changing it, proving it to set the payment
 * password or to start a time-out, the protected withdrawal during one): 5 wrong in a row lock
 * those checks for 30 minutes, so a stolen token cannot guess it. Logging in itself is limited per
 * client address instead, so no one can lock a stranger out of their account.
 */
export const LOGIN_PASSWORD_LIMITS: GuardLimits = { maxFailures: 5, lockMs: 30 * 60_000 }

const lockMessages = (wrong: string): GuardMessages => ({
  wrong: (left) => `${wrong}，还可尝试 ${left} 次`,
  lockedNow: (wait) => `登录密码错误次数过多，已锁定 ${wait}`,
  locked: (wait) => `登录密码错误次数过多，请 ${wait}后再试`,
})
const OLD_PASSWORD_MESSAGES = lockMessages(SERVER_MSG.wrongOldPassword)
export const LOGIN_PASSWORD_MESSAGES = lockMessages(SERVER_MSG.wrongLoginPassword)

/** Refuses a common or breached new password, as the contract refuses a bad field: 400, naming it. */
async function assertNotCommon(field: string, password: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw invalidInput(`${SERVER_MSG.invalidInput}：${field} ${PASSWORD_MSG.common}`)
  }
}

export class AccountService {
  readonly accounts: AccountRepository
  readonly sessions: SessionRepository
  readonly sms: SmsRepository
  /** The login password's counted lock, timed on the world clock so no scope's clock can lift it. */
  readonly loginGuard: PasswordGuard

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
    private readonly protection: ProtectionGuard,
    ledger: BalanceGeneration,
    publish: Publish = publishNothing,
  ) {
    this.accounts = new AccountRepository(db, ledger)
    this.sessions = new SessionRepository(db, (playerId) =>
      publish('session_end', { reason: 'revoked' }, player(playerId)),
    )
    this.sms = new SmsRepository(db)
    this.loginGuard = new PasswordGuard(db, 'login', () => clock.worldNow())
  }

  sendSms(phone: string, purpose: SmsPurpose): { resend_in: number; expires_in: number } {
    const now = this.clock.now()
    return immediate(this.db, () => {
      if (purpose === 'register' && this.accounts.findByPhone(phone))
        throw fail(SERVER_MSG.phoneTaken, CODE.conflict)
      const last = this.sms.latest(phone, purpose)
      if (last && now - last.sent_at < this.config.SMS_RESEND_MS) {
        const wait = Math.ceil((this.config.SMS_RESEND_MS - (now - last.sent_at)) / 1000)
        throw fail(`${SERVER_MSG.smsTooSoon}（${wait} 秒后可重发）`, CODE.rateLimited)
      }
      const answer = {
        resend_in: Math.ceil(this.config.SMS_RESEND_MS / 1000),
        expires_in: Math.ceil(this.config.SMS_TTL_MS / 1000),
      }
      // A reset code goes to registered phones only; the answer does not say which phones those are.
      if (purpose === 'reset_password' && !this.accounts.findByPhone(phone)) return answer
      const row = this.sms.issue(phone, purpose, now, this.config.SMS_TTL_MS)
      // No SMS leaves the machine: the code is logged and readable through /__emu/sms.
      this.log.info(
        { phone: maskPhone(phone), purpose, smsCode: row.code },
        'SMS code issued (emulator, not sent)',
      )
      return answer
    })
  }

  /** Checks and burns an SMS code in its own transaction, so a wrong guess is counted even though the call fails. */
  consumeSms(phone: string, purpose: SmsPurpose, code: string): void {
    const ok = immediate(this.db, () => this.sms.consume(phone, purpose, code, this.clock.now()))
    if (!ok) throw fail(SERVER_MSG.smsInvalid)
  }

  async register(input: { phone: string; code: string; password: string; invite_code?: string | undefined }) {
    await assertNotCommon('password', input.password)
    if (this.accounts.findByPhone(input.phone)) throw fail(SERVER_MSG.phoneTaken, CODE.conflict)
    const inviter = input.invite_code ? this.accounts.findByInviteCode(input.invite_code) : undefined
    if (input.invite_code && !inviter) throw fail(SERVER_MSG.inviteCodeUnknown)
    const passwordHash = await hashPassword(input.password)
    this.consumeSms(input.phone, 'register', input.code)
    const playerId = immediate(this.db, () => {
      if (this.accounts.findByPhone(input.phone)) throw fail(SERVER_MSG.phoneTaken, CODE.conflict)
      return this.accounts.create({
        phone: input.phone,
        nickname: `玩家${input.phone.slice(-4)}`,
        passwordHash,
        inviteCode: this.newInviteCode(),
        inviterId: inviter?.id ?? null,
        at: this.clock.now(),
      })
    })
    return { player_id: playerId }
  }

  async login(phone: string, password: string) {
    const player = this.accounts.findByPhone(phone)
    if (!(await signInMatches(player?.password_hash, password)) || !player)
      throw fail(SERVER_MSG.wrongPassword)
    this.protection.assertLogin(player.id, this.clock.now())
    const session = immediate(this.db, () =>
      this.sessions.create(player.id, this.clock.now(), this.config.SESSION_TTL_MS),
    )
    return {
      token: session.token,
      player_id: player.id,
      expires_at: session.expiresAt,
      user_info: AccountRepository.toUserInfo(player),
    }
  }

  logout(token: string): null {
    this.sessions.endToken(token, this.clock.now())
    return null
  }

  /** The player a query names must be the session's own. */
  private own(sessionPlayerId: number, playerId: number): PlayerRow {
    const player = this.accounts.findById(sessionPlayerId)
    if (!player) throw new ApiError(CODE.sessionExpired, '登录已失效!')
    if (playerId !== sessionPlayerId) throw fail(SERVER_MSG.playerMismatch)
    return player
  }

  userInfo(sessionPlayerId: number, playerId: number): UserInfo {
    return AccountRepository.toUserInfo(this.own(sessionPlayerId, playerId))
  }

  balance(sessionPlayerId: number, playerId: number) {
    if (playerId !== sessionPlayerId) throw fail(SERVER_MSG.playerMismatch)
    const row = this.accounts.balancesOf(sessionPlayerId)
    if (!row) throw new ApiError(CODE.sessionExpired, '登录已失效!')
    return { balance: formatMoney(row.balance_micro), trx_balance: formatMoney(row.trx_balance_micro) }
  }

  async changePassword(
    playerId: number,
    token: string,
    oldPassword: string,
    newPassword: string,
  ): Promise<null> {
    const player = this.accounts.findById(playerId)
    if (!player) throw new ApiError(CODE.sessionExpired, '登录已失效!')
    this.loginGuard.assertUnlocked(playerId, OLD_PASSWORD_MESSAGES)
    if (oldPassword === newPassword) throw fail(SERVER_MSG.samePassword)
    await assertNotCommon('new_password', newPassword)
    await this.loginGuard.check(
      playerId,
      LOGIN_PASSWORD_LIMITS,
      OLD_PASSWORD_MESSAGES,
      player.password_hash,
      oldPassword,
    )
    const newHash = await hashPassword(newPassword)
    immediate(this.db, () => {
      this.accounts.setPasswordHash(playerId, newHash)
      // Anyone else holding a session of this account is logged out; this one stays.
      this.sessions.endOthers(playerId, token, this.clock.now())
    })
    return null
  }

  /**
   * A forgotten login password replaced, proved by an SMS code to the account's phone (each wrong
   * code counted: five burn it). Every session of the player ends, and the login password's lock is
   * lifted: the code proved the phone.
   */
  async resetPassword(input: { phone: string; code: string; new_password: string }): Promise<null> {
    await assertNotCommon('new_password', input.new_password)
    const player = this.accounts.findByPhone(input.phone)
    // An unknown phone has no code: the same refusal as a wrong code.
    if (!player) throw fail(SERVER_MSG.smsInvalid)
    this.consumeSms(player.phone, 'reset_password', input.code)
    const newHash = await hashPassword(input.new_password)
    immediate(this.db, () => {
      this.accounts.setPasswordHash(player.id, newHash)
      this.sessions.endAll(player.id, this.clock.now())
      this.loginGuard.clear(player.id)
    })
    this.log.info({ playerId: player.id }, 'login password reset by SMS; every session ended')
    return null
  }

  async updatePaymentPassword(
    playerId: number,
    input: { pay_password: string; login_password?: string | undefined; sms_code?: string | undefined },
  ): Promise<null> {
    const player = this.accounts.findById(playerId)
    if (!player) throw new ApiError(CODE.sessionExpired, '登录已失效!')
    if (input.login_password !== undefined) {
      await this.proveLoginPassword(player, input.login_password)
    } else if (input.sms_code !== undefined) {
      this.consumeSms(player.phone, 'pay_password', input.sms_code)
    } else {
      throw fail(SERVER_MSG.payPasswordProof, CODE.invalidInput)
    }
    const payHash = await hashPassword(input.pay_password)
    immediate(this.db, () => this.accounts.setPayPasswordHash(playerId, payHash))
    return null
  }

  /** Checks the login password through its counted lock; refuses when wrong or locked. */
  proveLoginPassword(player: PlayerRow, password: string): Promise<void> {
    return this.loginGuard.check(
      player.id,
      LOGIN_PASSWORD_LIMITS,
      LOGIN_PASSWORD_MESSAGES,
      player.password_hash,
      password,
    )
  }

  /** For a phone no player has: takes as long as a wrong password, so the answer can't tell them apart. */
  async refuseUnknownPhone(password: string): Promise<void> {
    await signInMatches(undefined, password)
  }

  private newInviteCode(): string {
    for (;;) {
      let code = ''
      for (let i = 0; i < 6; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]
      if (!this.accounts.inviteCodeTaken(code)) return code
    }
  }
}
