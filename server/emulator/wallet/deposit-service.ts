import { createHash } from 'node:crypto'
import { immediate } from '@server/db/database'
import { fail, notFound } from '@server/http/api-error'
import { player } from '@server/realtime/event-hub'
import type { DepositOrder } from '@shared/contract/wallet'
import { NETWORK } from '@shared/contract/wallet'
import { formatMoney } from '@shared/money'
import { tronAddressFromAccountId } from '@shared/tron'
import type { DepositRepository } from './deposit-repository'
import type { FirstDepositBonus } from './first-deposit-bonus'
import { WALLET_MSG, type WalletContext } from './wallet-context'
import type { HistoryFilter } from './wallet-format'
import { fakeTxHash, orderNo, type Page, pagedResult } from './wallet-format'
import { depositView } from './wallet-views'

export const DEPOSIT_NOTICE = '仅支持 TRC20 网络的 USDT，充值其他网络或币种将无法到账且无法找回'

/**
 * A deposit address for a player: derived from the player id, so a reset gives the same address,
 * with a counter to step past the (unlikely) address already taken.
 */
export function depositAddressFor(playerId: number, attempt = 0): string {
  const digest = createHash('sha256').update(`hashgame:deposit-address:${playerId}:${attempt}`).digest()
  return tronAddressFromAccountId(digest.subarray(0, 20))
}

/** Top-up orders: created by the player, confirmed by the (simulated) chain after its delay. */
export class DepositService {
  readonly deposits: DepositRepository

  constructor(
    private readonly ctx: WalletContext,
    deposits: DepositRepository,
    private readonly bonus: FirstDepositBonus | null = null,
  ) {
    this.deposits = deposits
  }

  /** The player's deposit address, made on first use. Call inside a transaction. */
  private ensureAddress(playerId: number, at: number): string {
    const known = this.deposits.addressOf(playerId)
    if (known) return known
    for (let attempt = 0; ; attempt++) {
      const address = depositAddressFor(playerId, attempt)
      if (this.deposits.addressTaken(address)) continue
      this.deposits.saveAddress(playerId, address, at)
      return address
    }
  }

  payInfo(playerId: number) {
    const s = this.ctx.settings.current.deposit
    const address =
      this.deposits.addressOf(playerId) ??
      immediate(this.ctx.db, () => this.ensureAddress(playerId, this.ctx.clock.worldNow()))
    return {
      currency: 'USDT' as const,
      network: NETWORK,
      address,
      qr_text: address,
      min_amount: formatMoney(s.minMicro),
      max_amount: formatMoney(s.maxMicro),
      confirmations: s.confirmations,
      chain_delay_seconds: Math.round(s.chainDelayMs / 1000),
      notice: DEPOSIT_NOTICE,
    }
  }

  create(playerId: number, amountMicro: number): DepositOrder {
    const s = this.ctx.settings.current.deposit
    if (amountMicro < s.minMicro) throw fail(WALLET_MSG.amountTooSmall(formatMoney(s.minMicro)))
    if (amountMicro > s.maxMicro) throw fail(WALLET_MSG.amountTooLarge(formatMoney(s.maxMicro)))
    return immediate(this.ctx.db, () => {
      const now = this.ctx.clock.worldNow()
      if (this.deposits.countPending(playerId) >= s.maxPendingOrders)
        throw fail(WALLET_MSG.tooManyPendingDeposits)
      this.ctx.protection.assertDeposit(playerId, amountMicro, now)
      const row = this.deposits.create({
        orderNo: orderNo('D', now),
        playerId,
        address: this.ensureAddress(playerId, now),
        amountMicro,
        confirmationsRequired: s.confirmations,
        dueAt: now + s.chainDelayMs,
        at: now,
      })
      return depositView(row, now)
    })
  }

  order(playerId: number, id: number): DepositOrder {
    const row = this.deposits.find(id)
    if (!row || row.player_id !== playerId) throw notFound(WALLET_MSG.depositNotFound)
    return depositView(row, this.ctx.clock.worldNow())
  }

  history(playerId: number | null, filter: HistoryFilter, page: Page) {
    const { rows, total } = this.deposits.list(playerId, filter, page)
    const now = this.ctx.clock.worldNow()
    return pagedResult(
      rows.map((r) => depositView(r, now)),
      page,
      total,
    )
  }

  /**
   * The chain confirms the order: it turns confirmed and the balance is credited, in one
   * transaction. Returns false when it was already confirmed, so a deposit credits exactly once.
   */
  confirm(id: number): boolean {
    return immediate(this.ctx.db, () => {
      const row = this.deposits.find(id)
      if (!row) throw notFound(WALLET_MSG.depositNotFound)
      const now = this.ctx.clock.worldNow()
      if (!this.deposits.markConfirmed(id, now, fakeTxHash())) return false
      this.ctx.publish?.(
        'deposit',
        { id, order_no: row.order_no, status: 'confirmed', amount: formatMoney(row.amount_micro) },
        player(row.player_id),
      )
      this.ctx.ledger.post({
        playerId: row.player_id,
        currency: 'USDT',
        type: 'topup',
        amountMicro: row.amount_micro,
        ref: row.order_no,
        memo: 'USDT-TRC20 充值',
        at: now,
      })
      // The promotion the activity page advertises, paid in the same transaction as the top-up.
      this.bonus?.afterDeposit({
        playerId: row.player_id,
        amountMicro: row.amount_micro,
        orderNo: row.order_no,
        at: now,
      })
      return true
    })
  }

  /** Timed job: confirms every order whose chain delay has passed. */
  confirmDue(now: number): number {
    let credited = 0
    for (const id of this.deposits.due(now)) if (this.confirm(id)) credited++
    return credited
  }
}
