import { fail, notFound } from '@server/http/api-error'
import { controlRoute } from '@server/http/control-route'
import {
  approveWithdrawal,
  confirmDeposit,
  getWalletSettings,
  listDeposits,
  listWithdrawals,
  patchWalletSettings,
  rejectWithdrawal,
  unlockPayPassword,
  walletDrift,
} from '@shared/emu-contract/wallet'
import type { FastifyInstance } from 'fastify'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { WalletDomain } from './wallet-domain'
import { pageOf } from './wallet-format'

/**
 * The chain and the back office, for testers: confirm a deposit, approve or reject a withdrawal,
 * list what is pending, change the wallet's numbers, lift a payment-password lock, check the ledger.
 * The admin token, when configured, is checked for every /__emu route by the fault layer.
 */
export async function walletControlRoutes(
  app: FastifyInstance,
  opts: { wallet: WalletDomain; ledger: LedgerRepository },
): Promise<void> {
  const { wallet, ledger } = opts

  const depositId = (ref: string): number => {
    const row = /^\d+$/.test(ref)
      ? wallet.deposits.deposits.find(Number(ref))
      : wallet.deposits.deposits.findByOrderNo(ref)
    if (!row) throw notFound('充值订单不存在')
    return row.id
  }
  const withdrawalId = (ref: string): number => {
    const repo = wallet.withdrawals.withdrawals
    const row = /^\d+$/.test(ref) ? repo.find(Number(ref)) : repo.findByOrderNo(ref)
    if (!row) throw notFound('提现订单不存在')
    return row.id
  }

  controlRoute(app, listDeposits, ({ query }) =>
    wallet.deposits.history(
      query.player_id ?? null,
      { status: query.status, from: null, to: null },
      pageOf(query),
    ),
  )

  /** Confirms at once; a second call says it was already confirmed and credits nothing. */
  controlRoute(app, confirmDeposit, ({ params }) => {
    const id = depositId(params.id)
    const credited = wallet.deposits.confirm(id)
    const row = wallet.deposits.deposits.find(id)
    if (!row) throw notFound('充值订单不存在')
    return { credited, order: wallet.deposits.order(row.player_id, id) }
  })

  controlRoute(app, listWithdrawals, ({ query }) =>
    wallet.withdrawals.history(
      query.player_id ?? null,
      { status: query.status, from: null, to: null },
      pageOf(query),
    ),
  )

  controlRoute(app, approveWithdrawal, ({ params }) => {
    const id = withdrawalId(params.id)
    if (!wallet.withdrawals.approve(id)) throw fail('该提现已处理，不能再审核')
    return wallet.withdrawals.find(id)
  })

  controlRoute(app, rejectWithdrawal, ({ params, body }) => {
    const id = withdrawalId(params.id)
    if (!wallet.withdrawals.reject(id, body?.reason)) throw fail('该提现已处理，不能再审核')
    return wallet.withdrawals.find(id)
  })

  controlRoute(app, getWalletSettings, () => wallet.ctx.settings.raw)

  /** Changes the wallet's numbers until the next reset (which reads fixtures/wallet.json again). */
  controlRoute(app, patchWalletSettings, ({ body }) => {
    wallet.ctx.settings.patch(body)
    return wallet.ctx.settings.raw
  })

  controlRoute(app, unlockPayPassword, ({ params }) => {
    // One statement: a transaction of its own.
    wallet.withdrawals.guard.reset(params.playerId)
    return null
  })

  /** Players whose balance differs from the sum of their ledger; empty when all is well. */
  controlRoute(app, walletDrift, () => ({ drift: ledger.drift() }))
}
