import type { Emulator } from '../../plugins/emulator-plugin'
import { DepositService } from './deposit-service'
import { ExchangeService } from './exchange-service'
import {
  FirstDepositBonus,
  firstDepositRule,
  loadPromotionsFixture,
  type PromotionsFixture,
} from './first-deposit-bonus'
import { type FundFlowFilter, FundFlowRepository } from './fund-flow-repository'
import type { WalletContext } from './wallet-context'
import { type Page, pagedResult } from './wallet-format'
import { walletSeeder } from './wallet-seeder'
import { loadWalletFixture, WalletSettingsHolder } from './wallet-settings'
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
    this.deposits = new DepositService(ctx, rule ? new FirstDepositBonus(ctx.db, ctx.ledger, rule) : null)
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

const domains = new WeakMap<Emulator, WalletDomain>()

/**
 * The wallet of an emulator, made on first call: the API routes and the /__emu routes both ask
 * for it, and the first registers its seeder and its timed job.
 */
export function walletOf(emu: Emulator, fixturesDir: string): WalletDomain {
  const known = domains.get(emu)
  if (known) return known
  const settings = new WalletSettingsHolder(loadWalletFixture(fixturesDir))
  const domain = new WalletDomain(
    { db: emu.db, clock: emu.clock, ledger: emu.ledger, settings },
    loadPromotionsFixture(fixturesDir),
  )
  emu.addSeeder(walletSeeder(settings))
  emu.ticker.register('wallet', (now) => domain.runDue(now))
  domains.set(emu, domain)
  return domain
}
