import { immediate } from '@server/db/database'
import { fail, notFound } from '@server/http/api-error'
import { recordAnswer } from '@server/http/idempotency'
import { player } from '@server/realtime/event-hub'
import { dayStartOf } from '@shared/business-day'
import type { Withdrawal } from '@shared/contract/wallet'
import { NETWORK } from '@shared/contract/wallet'
import { formatMoney } from '@shared/money'
import type { GuardLimits, GuardMessages, PasswordGuard } from '../account/password-guard'
import { InsufficientFundsError } from '../ledger/insufficient-funds'
import { WALLET_MSG, type WalletContext } from './wallet-context'
import type { HistoryFilter } from './wallet-format'
import { fakeTxHash, orderNo, type Page, pagedResult } from './wallet-format'
import { walletAddressView, withdrawalView } from './wallet-views'
import { WithdrawalRepository } from './withdrawal-repository'

const PAY_PASSWORD_MESSAGES: GuardMessages = {
  wrong: WALLET_MSG.payPasswordWrong,
  lockedNow: WALLET_MSG.payPasswordLockedNow,
  locked: WALLET_MSG.payPasswordLocked,
}

/** A withdrawal just held, and the balance after it. */
export interface HoldResult {
  readonly order: Withdrawal
  readonly balance: string
}

export const REJECT_REASON_DEFAULT = '审核未通过'
export const AUTO_REJECT_REASON = '风控审核未通过'

/**
 * Withdrawals and the addresses they go to. The amount plus the fee leaves the balance at request
 * (two ledger rows); approval completes it with no further movement; rejection gives both back.
 */
export class WithdrawalService {
  readonly withdrawals: WithdrawalRepository
  /** The payment password's counted lock (the account domain's, handed in with the context). */
  readonly guard: PasswordGuard

  constructor(private readonly ctx: WalletContext) {
    this.withdrawals = new WithdrawalRepository(ctx.db)
    this.guard = ctx.payGuard
  }

  private get rules() {
    return this.ctx.settings.current.withdrawal
  }

  // ── payment password ──

  private get limits(): GuardLimits {
    return { maxFailures: this.rules.maxFailures, lockMs: this.rules.lockMs }
  }

  private assertUnlocked(playerId: number): void {
    this.guard.assertUnlocked(playerId, PAY_PASSWORD_MESSAGES)
  }

  /**
   * Checks the payment password. The check is counted before the hash is compared, so parallel
   * guesses can't get past the limit; while locked every answer is the lock's, right or wrong.
   */
  async checkPayPassword(playerId: number, password: string): Promise<void> {
    this.assertUnlocked(playerId)
    const hash = this.ctx.accounts.payPasswordHashOf(playerId)
    if (!hash) throw fail(WALLET_MSG.noPayPassword)
    await this.guard.check(playerId, this.limits, PAY_PASSWORD_MESSAGES, hash, password)
  }

  // ── addresses ──

  addressList(playerId: number) {
    return {
      list: this.withdrawals.addresses(playerId).map(walletAddressView),
      max_count: this.rules.maxAddresses,
    }
  }

  async bind(
    playerId: number,
    input: { address: string; label: string; payPassword: string; isDefault: boolean },
  ) {
    this.assertBindable(playerId, input.address)
    await this.checkPayPassword(playerId, input.payPassword)
    immediate(this.ctx.db, () => this.bindProved(playerId, input.address, input.label, input.isDefault))
    return this.addressList(playerId)
  }

  /**
   * Binds an address for a player already proved some other way than the payment password (the
   * protected withdrawal flow: login password and SMS code). Call inside a transaction.
   */
  bindProved(playerId: number, address: string, label: string, isDefault: boolean): void {
    this.assertBindable(playerId, address)
    const first = this.withdrawals.addresses(playerId).length === 0
    this.withdrawals.bind(playerId, address, label, first || isDefault, this.ctx.clock.worldNow())
  }

  /** Refuses an address already bound, or one more than allowed. */
  assertBindable(playerId: number, address: string): void {
    const bound = this.withdrawals.addresses(playerId)
    if (bound.some((a) => a.address === address)) throw fail(WALLET_MSG.walletDuplicate)
    if (bound.length >= this.rules.maxAddresses) throw fail(WALLET_MSG.walletLimit(this.rules.maxAddresses))
  }

  setDefault(playerId: number, id: number) {
    immediate(this.ctx.db, () => {
      if (!this.withdrawals.address(playerId, id)) throw notFound(WALLET_MSG.walletNotFound)
      this.withdrawals.setDefault(playerId, id)
    })
    return this.addressList(playerId)
  }

  remove(playerId: number, id: number) {
    immediate(this.ctx.db, () => {
      const row = this.withdrawals.address(playerId, id)
      if (!row) throw notFound(WALLET_MSG.walletNotFound)
      this.withdrawals.remove(playerId, id)
      if (row.is_default === 1) {
        const [next] = this.withdrawals.addresses(playerId)
        if (next) this.withdrawals.setDefault(playerId, next.id)
      }
    })
    return this.addressList(playerId)
  }

  // ── withdrawals ──

  config(playerId: number) {
    const r = this.rules
    // Money, its days and the payment-password lock all follow the world clock.
    const balance = this.ctx.accounts.usdtBalanceOf(playerId) ?? 0
    const payHash = this.ctx.accounts.payPasswordHashOf(playerId)
    const hasPay = payHash !== null && payHash !== undefined
    const used = this.withdrawals.usedSince(playerId, dayStartOf(this.ctx.clock.worldNow()))
    const remaining = Math.max(0, r.dailyLimitMicro - used)
    const maxWithdrawable = Math.max(0, Math.min(balance - r.feeMicro, remaining, r.maxMicro))
    return {
      currency: 'USDT' as const,
      network: NETWORK,
      min_amount: formatMoney(r.minMicro),
      max_amount: formatMoney(r.maxMicro),
      fee: formatMoney(r.feeMicro),
      daily_limit: formatMoney(r.dailyLimitMicro),
      used_today: formatMoney(used),
      remaining_today: formatMoney(remaining),
      balance: formatMoney(balance),
      max_withdrawable: formatMoney(maxWithdrawable < r.minMicro ? 0 : maxWithdrawable),
      has_pay_password: hasPay,
      locked_until: this.guard.lockedUntil(playerId),
      pay_password_attempts_left: this.guard.attemptsLeft(playerId, this.limits),
    }
  }

  /**
   * The whole request: lock, cheap checks, then the payment password, then the hold. `answer`
   * shapes what the endpoint sends; it is stored with the hold for an idempotent call.
   */
  async withdraw<A = HoldResult>(
    playerId: number,
    walletId: number,
    amountMicro: number,
    payPassword: string,
    answer: (held: HoldResult) => A = (held) => held as A,
  ): Promise<A> {
    this.assertUnlocked(playerId)
    // Refuse what would be refused anyway before a password guess is spent on it.
    this.checkRequest(playerId, walletId, amountMicro)
    await this.checkPayPassword(playerId, payPassword)
    return this.hold(playerId, walletId, amountMicro, answer)
  }

  private checkRequest(playerId: number, walletId: number, amountMicro: number) {
    const r = this.rules
    const target = this.withdrawals.address(playerId, walletId)
    if (!target) throw fail(WALLET_MSG.walletNotFound)
    if (amountMicro < r.minMicro) throw fail(WALLET_MSG.amountTooSmall(formatMoney(r.minMicro)))
    if (amountMicro > r.maxMicro) throw fail(WALLET_MSG.amountTooLarge(formatMoney(r.maxMicro)))
    const used = this.withdrawals.usedSince(playerId, dayStartOf(this.ctx.clock.worldNow()))
    if (used + amountMicro > r.dailyLimitMicro)
      throw fail(WALLET_MSG.dailyLimit(formatMoney(Math.max(0, r.dailyLimitMicro - used))))
    const balance = this.ctx.accounts.usdtBalanceOf(playerId) ?? 0
    if (balance < amountMicro + r.feeMicro) throw fail(WALLET_MSG.insufficient)
    return target
  }

  /**
   * Holds amount + fee and records the withdrawal, all in one BEGIN IMMEDIATE transaction, with
   * every check repeated inside it, and the answer of the idempotent call it belongs to (if any)
   * with them. The payment password must have been checked by the caller.
   */
  hold<A = HoldResult>(
    playerId: number,
    walletId: number,
    amountMicro: number,
    answer: (held: HoldResult) => A = (held) => held as A,
  ): A {
    try {
      return immediate(this.ctx.db, () => {
        this.assertUnlocked(playerId)
        const target = this.checkRequest(playerId, walletId, amountMicro)
        const now = this.ctx.clock.worldNow()
        const { feeMicro, autoReviewAfterMs } = this.rules
        const order = orderNo('W', now)
        const row = this.withdrawals.create({
          orderNo: order,
          playerId,
          address: target.address,
          label: target.label,
          amountMicro,
          feeMicro,
          reviewDueAt: autoReviewAfterMs === null ? null : now + autoReviewAfterMs,
          at: now,
        })
        let after = this.ctx.ledger.post({
          playerId,
          currency: 'USDT',
          type: 'withdrawal',
          amountMicro: -amountMicro,
          ref: order,
          memo: `提现至 ${target.address}`,
          at: now,
        })
        if (feeMicro > 0)
          after = this.ctx.ledger.post({
            playerId,
            currency: 'USDT',
            type: 'withdrawal_fee',
            amountMicro: -feeMicro,
            ref: order,
            memo: '提现手续费',
            at: now,
          })
        this.ctx.publish?.(
          'withdrawal',
          { id: row.id, order_no: row.order_no, status: 'pending', amount: formatMoney(row.amount_micro) },
          player(playerId),
        )
        const result = answer({ order: withdrawalView(row), balance: formatMoney(after.balanceAfterMicro) })
        recordAnswer(this.ctx.db, result)
        return result
      })
    } catch (err) {
      if (err instanceof InsufficientFundsError) throw fail(WALLET_MSG.insufficient)
      throw err
    }
  }

  history(playerId: number | null, filter: HistoryFilter, page: Page) {
    const { rows, total } = this.withdrawals.list(playerId, filter, page)
    return pagedResult(rows.map(withdrawalView), page, total)
  }

  find(id: number): Withdrawal {
    const row = this.withdrawals.find(id)
    if (!row) throw notFound(WALLET_MSG.withdrawalNotFound)
    return withdrawalView(row)
  }

  /** The back office pays it out: the money already left the balance at request. */
  approve(id: number): boolean {
    return immediate(this.ctx.db, () => {
      const row = this.withdrawals.find(id)
      if (!row) throw notFound(WALLET_MSG.withdrawalNotFound)
      const done = this.withdrawals.markReviewed(
        id,
        'approved',
        this.ctx.clock.worldNow(),
        null,
        fakeTxHash(),
      )
      if (done)
        this.ctx.publish?.(
          'withdrawal',
          { id, order_no: row.order_no, status: 'approved', amount: formatMoney(row.amount_micro) },
          player(row.player_id),
        )
      return done
    })
  }

  /** The back office refuses it: amount and fee come back as one refund row. */
  reject(id: number, reason: string = REJECT_REASON_DEFAULT): boolean {
    return immediate(this.ctx.db, () => {
      const row = this.withdrawals.find(id)
      if (!row) throw notFound(WALLET_MSG.withdrawalNotFound)
      const now = this.ctx.clock.worldNow()
      if (!this.withdrawals.markReviewed(id, 'rejected', now, reason, null)) return false
      this.ctx.publish?.(
        'withdrawal',
        { id, order_no: row.order_no, status: 'rejected', amount: formatMoney(row.amount_micro) },
        player(row.player_id),
      )
      this.ctx.ledger.post({
        playerId: row.player_id,
        currency: 'USDT',
        type: 'refund',
        amountMicro: row.amount_micro + row.fee_micro,
        ref: row.order_no,
        memo: `提现退回：${reason}`,
        at: now,
      })
      return true
    })
  }

  /** Timed job: reviews every pending withdrawal whose delay has passed, as the settings say. */
  reviewDue(now: number): number {
    const action = this.rules.autoReviewAction
    let reviewed = 0
    for (const id of this.withdrawals.due(now)) {
      if (action === 'approve' ? this.approve(id) : this.reject(id, AUTO_REJECT_REASON)) reviewed++
    }
    return reviewed
  }
}
