import type { WalletCurrency } from '@shared/contract/wallet'
import {
  type WalletFixture,
  type WalletSettingsPatch,
  walletFixtureSchema,
} from '@shared/emu-contract/wallet-settings'
import { toMicro } from '@shared/money'
import { loadFixture } from '../fixtures'

export interface ExchangePairSettings {
  readonly from: WalletCurrency
  readonly to: WalletCurrency
  readonly rate: string
  readonly minMicro: number
  readonly maxMicro: number
}

/** The wallet's numbers in the units the code uses: micro-units and milliseconds. */
export interface WalletSettings {
  readonly deposit: {
    readonly minMicro: number
    readonly maxMicro: number
    readonly confirmations: number
    readonly chainDelayMs: number
    readonly maxPendingOrders: number
  }
  readonly withdrawal: {
    readonly minMicro: number
    readonly maxMicro: number
    readonly feeMicro: number
    readonly dailyLimitMicro: number
    readonly autoReviewAfterMs: number | null
    readonly autoReviewAction: 'approve' | 'reject'
    readonly maxAddresses: number
    readonly maxFailures: number
    readonly lockMs: number
  }
  readonly exchange: { readonly pairs: readonly ExchangePairSettings[] }
}

export function toSettings(f: Pick<WalletFixture, 'deposit' | 'withdrawal' | 'exchange'>): WalletSettings {
  return {
    deposit: {
      minMicro: toMicro(f.deposit.min_amount),
      maxMicro: toMicro(f.deposit.max_amount),
      confirmations: f.deposit.confirmations,
      chainDelayMs: f.deposit.chain_delay_seconds * 1000,
      maxPendingOrders: f.deposit.max_pending_orders,
    },
    withdrawal: {
      minMicro: toMicro(f.withdrawal.min_amount),
      maxMicro: toMicro(f.withdrawal.max_amount),
      feeMicro: toMicro(f.withdrawal.fee),
      dailyLimitMicro: toMicro(f.withdrawal.daily_limit),
      autoReviewAfterMs:
        f.withdrawal.auto_review_after_seconds === null
          ? null
          : f.withdrawal.auto_review_after_seconds * 1000,
      autoReviewAction: f.withdrawal.auto_review_action,
      maxAddresses: f.withdrawal.max_addresses,
      maxFailures: f.withdrawal.pay_password_max_failures,
      lockMs: f.withdrawal.pay_password_lock_minutes * 60_000,
    },
    exchange: {
      pairs: f.exchange.pairs.map((p) => ({
        from: p.from,
        to: p.to,
        rate: p.rate,
        minMicro: toMicro(p.min_amount),
        maxMicro: toMicro(p.max_amount),
      })),
    },
  }
}

export const loadWalletFixture = (fixturesDir: string): WalletFixture =>
  loadFixture(fixturesDir, 'wallet.json', walletFixtureSchema)

/**
 * The live settings: read from fixtures/wallet.json at start and on every reset, and patchable by
 * a tester in between.
 */
export class WalletSettingsHolder {
  private fixture: WalletFixture
  private settings: WalletSettings

  constructor(fixture: WalletFixture) {
    this.fixture = fixture
    this.settings = toSettings(fixture)
  }

  get current(): WalletSettings {
    return this.settings
  }

  get raw(): WalletFixture {
    return this.fixture
  }

  replace(fixture: WalletFixture): void {
    this.fixture = fixture
    this.settings = toSettings(fixture)
  }

  patch(p: WalletSettingsPatch): void {
    const next: WalletFixture = {
      ...this.fixture,
      deposit: { ...this.fixture.deposit, ...p.deposit },
      withdrawal: { ...this.fixture.withdrawal, ...p.withdrawal },
      exchange: p.exchange ?? this.fixture.exchange,
    }
    this.settings = toSettings(next)
    this.fixture = next
  }
}
