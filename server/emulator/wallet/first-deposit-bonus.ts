import { formatMoney, MICRO, toMicro } from '@shared/money'
import { z } from 'zod'
import { loadFixture } from '../fixtures'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { DepositRepository } from './deposit-repository'

const amount = z.string().regex(/^\d+(\.\d{1,6})?$/, { error: 'an amount such as "10" or "0.5"' })

/**
 * fixtures/promotions.json: the rules of the promotions the emulator pays. `first_deposit` is the
 * first-deposit bonus the activity with `activity_id` advertises; null turns it off.
 */
export const promotionsFixtureSchema = z.strictObject({
  first_deposit: z
    .strictObject({
      /** The activity (fixtures/content/activities.json) whose page states these rules. */
      activity_id: z.number().int().min(1),
      /** Bonus as a percentage of the deposit, e.g. "10". */
      percent: amount.refine((p) => toMicro(p) > 0 && toMicro(p) <= 100 * MICRO, {
        error: 'a percentage above 0 and at most 100',
      }),
      /** The most one player gets. */
      max_bonus: amount,
      /** A smaller first deposit earns nothing (and uses up the offer: only the first counts). */
      min_deposit: amount,
    })
    .nullable(),
})
export type PromotionsFixture = z.output<typeof promotionsFixtureSchema>

export const loadPromotionsFixture = (fixturesDir: string): PromotionsFixture =>
  loadFixture(fixturesDir, 'promotions.json', promotionsFixtureSchema)

export interface FirstDepositRule {
  readonly percentMicro: number
  readonly maxMicro: number
  readonly minDepositMicro: number
}

export function firstDepositRule(f: PromotionsFixture): FirstDepositRule | null {
  const r = f.first_deposit
  if (!r) return null
  return {
    percentMicro: toMicro(r.percent),
    maxMicro: toMicro(r.max_bonus),
    minDepositMicro: toMicro(r.min_deposit),
  }
}

/** The bonus a first deposit earns: the percentage, rounded down to the micro-unit, capped. */
export function firstDepositBonusMicro(depositMicro: number, rule: FirstDepositRule): number {
  if (depositMicro < rule.minDepositMicro) return 0
  // amount × percent / 100 in integers: both are micro-units, so divide by 100 × MICRO.
  const raw = (BigInt(depositMicro) * BigInt(rule.percentMicro)) / BigInt(100 * MICRO)
  return Math.min(Number(raw), rule.maxMicro)
}

/**
 * Pays the first-deposit bonus on a player's first credited top-up: a `deposit_bonus` ledger row
 * beside the top-up's row, in the caller's transaction. Only the first confirmed deposit counts,
 * and a player who already has a bonus row never gets another.
 */
export class FirstDepositBonus {
  constructor(
    private readonly deposits: DepositRepository,
    private readonly ledger: LedgerRepository,
    private readonly rule: FirstDepositRule | null,
  ) {}

  /** Call inside the transaction that confirmed the deposit; returns the bonus paid (0 for none). */
  afterDeposit(deposit: { playerId: number; amountMicro: number; orderNo: string; at: number }): number {
    if (!this.rule) return 0
    if (this.deposits.confirmedCount(deposit.playerId) !== 1) return 0
    if (this.ledger.countOfType(deposit.playerId, 'deposit_bonus') > 0) return 0
    const bonus = firstDepositBonusMicro(deposit.amountMicro, this.rule)
    if (bonus <= 0) return 0
    this.ledger.post({
      playerId: deposit.playerId,
      currency: 'USDT',
      type: 'deposit_bonus',
      amountMicro: bonus,
      ref: deposit.orderNo,
      memo: `首充赠送：充值 ${formatMoney(deposit.amountMicro)} USDT 赠送 ${formatMoney(bonus)} USDT`,
      at: deposit.at,
    })
    return bonus
  }
}
