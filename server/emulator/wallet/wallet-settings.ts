import { CURRENCIES, NETWORK, type WalletCurrency } from '@shared/contract/wallet'
import { toMicro } from '@shared/money'
import { isTronAddress } from '@shared/tron'
import { z } from 'zod'
import { loadFixture } from '../fixtures'

const amount = z.string().regex(/^\d+(\.\d{1,6})?$/, { error: 'an amount such as "10" or "0.158"' })
const rate = z.string().regex(/^\d+(\.\d{1,6})?$/, { error: 'a rate with at most 6 decimal places' })
const seconds = z.number().int().min(0)

const depositSchema = z.strictObject({
  min_amount: amount,
  max_amount: amount,
  confirmations: z.number().int().min(1),
  chain_delay_seconds: seconds,
  max_pending_orders: z.number().int().min(1),
})

const withdrawalSchema = z.strictObject({
  min_amount: amount,
  max_amount: amount,
  fee: amount,
  daily_limit: amount,
  /** The back office reviews each withdrawal this long after the request; null: only through /__emu. */
  auto_review_after_seconds: seconds.nullable(),
  /** What that review decides. */
  auto_review_action: z.enum(['approve', 'reject']),
  max_addresses: z.number().int().min(1),
  pay_password_max_failures: z.number().int().min(1),
  pay_password_lock_minutes: z.number().int().min(1),
})

const pairSchema = z.strictObject({
  from: z.enum(CURRENCIES),
  to: z.enum(CURRENCIES),
  rate,
  min_amount: amount,
  max_amount: amount,
})

export const walletFixtureSchema = z.strictObject({
  network: z.literal(NETWORK),
  deposit: depositSchema,
  withdrawal: withdrawalSchema,
  exchange: z.strictObject({
    pairs: z.array(pairSchema).refine((pairs) => pairs.every((p) => p.from !== p.to), {
      error: 'a pair converts between two different currencies',
    }),
  }),
  seed: z
    .strictObject({
      /** Withdrawal addresses bound at seed time, by the player's phone. */
      addresses: z
        .array(
          z.strictObject({
            phone: z.string(),
            address: z.string().refine(isTronAddress, { error: 'not a valid TRON address' }),
            label: z.string().min(1).max(20),
            is_default: z.boolean().default(false),
          }),
        )
        .default([]),
    })
    .default({ addresses: [] }),
})
export type WalletFixture = z.output<typeof walletFixtureSchema>

/** What a tester may change at run time through /__emu/wallet/settings. */
export const walletSettingsPatchSchema = z.strictObject({
  deposit: depositSchema.partial().optional(),
  withdrawal: withdrawalSchema.partial().optional(),
  exchange: z.strictObject({ pairs: z.array(pairSchema) }).optional(),
})
export type WalletSettingsPatch = z.output<typeof walletSettingsPatchSchema>

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
