import {
  CURRENCIES,
  depositOrderSchema,
  depositStatusSchema,
  getDepositHistory,
  getWithdrawalHistory,
  withdrawalSchema,
  withdrawalStatusSchema,
} from '@shared/contract/wallet'
import { scopeNameSchema } from '@shared/emu-control'
import { z } from 'zod'
import { defineControl } from './control-endpoint'
import { walletFixtureSchema, walletSettingsPatchSchema } from './wallet-settings'

/**
 * The chain and the back office, for testers (emulator mode): confirm a deposit, approve or reject
 * a withdrawal, list what is pending, change the wallet's numbers, lift a payment-password lock,
 * check the ledger.
 */

/** A deposit or withdrawal named by its numeric id or its order number. */
const orderRef = z.object({ id: z.string().min(1).max(64) })

const listQuery = z.strictObject({
  /** Accepted like on every control call; the wallet's data is shared, so it narrows nothing. */
  scope: scopeNameSchema.optional(),
  player_id: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).optional(),
  page_size: z.coerce.number().int().min(1).max(200).optional(),
})

export const listDeposits = defineControl({
  id: 'listDeposits',
  method: 'GET',
  path: '/__emu/deposits',
  summary: "Top-up orders, newest first: every player's, or one's",
  tag: 'wallet',
  emulatorOnly: true,
  query: listQuery.extend({ status: depositStatusSchema.optional() }),
  data: getDepositHistory.data,
})

export const confirmDeposit = defineControl({
  id: 'confirmDeposit',
  method: 'POST',
  path: '/__emu/deposits/:id/confirm',
  summary: 'The chain confirms a top-up now; a second call credits nothing (credited: false)',
  tag: 'wallet',
  emulatorOnly: true,
  params: orderRef,
  data: z.object({ credited: z.boolean(), order: depositOrderSchema }),
})

export const listWithdrawals = defineControl({
  id: 'listWithdrawals',
  method: 'GET',
  path: '/__emu/withdrawals',
  summary: "Withdrawals, newest first: every player's, or one's",
  tag: 'wallet',
  emulatorOnly: true,
  query: listQuery.extend({ status: withdrawalStatusSchema.optional() }),
  data: getWithdrawalHistory.data,
})

export const approveWithdrawal = defineControl({
  id: 'approveWithdrawal',
  method: 'POST',
  path: '/__emu/withdrawals/:id/approve',
  summary: 'The back office approves a pending withdrawal',
  tag: 'wallet',
  emulatorOnly: true,
  params: orderRef,
  data: withdrawalSchema,
})

export const rejectWithdrawal = defineControl({
  id: 'rejectWithdrawal',
  method: 'POST',
  path: '/__emu/withdrawals/:id/reject',
  summary: 'The back office rejects a pending withdrawal: amount and fee go back to the balance',
  tag: 'wallet',
  emulatorOnly: true,
  params: orderRef,
  body: z.strictObject({ reason: z.string().min(1).max(100).optional() }).nullish(),
  data: withdrawalSchema,
})

export const getWalletSettings = defineControl({
  id: 'getWalletSettings',
  method: 'GET',
  path: '/__emu/wallet/settings',
  summary: "The wallet's numbers now (fixtures/wallet.json, with any change made since)",
  tag: 'wallet',
  emulatorOnly: true,
  data: walletFixtureSchema,
})

export const patchWalletSettings = defineControl({
  id: 'patchWalletSettings',
  method: 'PUT',
  path: '/__emu/wallet/settings',
  summary: "Change the wallet's numbers until the next reset (which reads fixtures/wallet.json again)",
  tag: 'wallet',
  emulatorOnly: true,
  body: walletSettingsPatchSchema,
  data: walletFixtureSchema,
})

export const unlockPayPassword = defineControl({
  id: 'unlockPayPassword',
  method: 'POST',
  path: '/__emu/wallet/pay-password/:playerId/unlock',
  summary: "Lift a player's payment-password lock and forget the wrong tries",
  tag: 'wallet',
  emulatorOnly: true,
  params: z.object({ playerId: z.coerce.number().int().positive() }),
  data: z.null(),
})

export const walletDrift = defineControl({
  id: 'walletDrift',
  method: 'GET',
  path: '/__emu/wallet/drift',
  summary: 'Players whose balance differs from the sum of their ledger; empty when all is well',
  tag: 'wallet',
  emulatorOnly: true,
  data: z.object({
    drift: z.array(
      z.object({
        playerId: z.number().int(),
        currency: z.enum(CURRENCIES),
        /** Micro-units. */
        balance: z.number().int(),
        ledger: z.number().int(),
      }),
    ),
  }),
})

export const WALLET_CONTROLS = [
  listDeposits,
  confirmDeposit,
  listWithdrawals,
  approveWithdrawal,
  rejectWithdrawal,
  getWalletSettings,
  patchWalletSettings,
  unlockPayPassword,
  walletDrift,
] as const
