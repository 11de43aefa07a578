import { DepositRepository } from './deposit-repository'
import { DepositService } from './deposit-service'
import { ExchangeService } from './exchange-service'
import { FirstDepositBonus, firstDepositRule, type PromotionsFixture } from './first-deposit-bonus'
import { type FundFlowFilter, FundFlowRepository } from './fund-flow-repository'
import type { WalletContext } from './wallet-context'
import { type Page, pagedResult } from './wallet-format'
import { fundFlowView } from './wallet-views'
import { WithdrawalService } from './withdrawal-service'

/** The wallet's services over one emulator database. */
export class WalletDomain {
  readonly deposits: DepositService
  readonly withdrawals: WithdrawalService
  readonly exchange: ExchangeService
  readonly fundFlowRows: FundFlowRepository

  /** `promotions`: the bonuses the wallet pays (fixtures/promotions.json); none when left out. */
  constructor(
    readonly ctx: WalletContext,
    promotions: PromotionsFixture = { first_deposit: null },
  ) {
    const rule = firstDepositRule(promotions)
    const deposits = new DepositRepository(ctx.db)
    this.deposits = new DepositService(
      ctx,
      deposits,
      rule ? new FirstDepositBonus(deposits, ctx.ledger, rule) : null,
    )
    this.withdrawals = new WithdrawalService(ctx)
    this.exchange = new ExchangeService(ctx)
    this.fundFlowRows = new FundFlowRepository(ctx.db)
  }

  fundFlow(playerId: number, filter: FundFlowFilter, page: Page) {
    const { rows, total } = this.fundFlowRows.list(playerId, filter, page)
    return pagedResult(rows.map(fundFlowView), page, total)
  }

  /** The timed work: chain confirmations and automatic reviews due by `now`. */
  runDue(now: number): void {
    this.deposits.confirmDue(now)
    this.withdrawals.reviewDue(now)
  }
}
