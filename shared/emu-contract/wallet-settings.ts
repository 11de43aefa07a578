import { CURRENCIES, NETWORK } from '@shared/contract/wallet'
import { isTronAddress } from '@shared/tron'
import { z } from 'zod'

/**
 * The wallet's numbers as fixtures/wallet.json gives them, and what a tester may change at run time
 * through /__emu/wallet/settings (docs/testing.md). Never imported by the app players download.
 */

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
