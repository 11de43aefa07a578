import { immediate } from '@server/db/database'
import { fail, notFound } from '@server/http/api-error'
import { ok } from '@server/http/envelope'
import { depositStatusSchema, withdrawalStatusSchema } from '@shared/contract/wallet'
import { scopeNameSchema } from '@shared/emu-control'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { WalletDomain } from './wallet-domain'
import { pageOf } from './wallet-format'
import { walletSettingsPatchSchema } from './wallet-settings'

/** A deposit or withdrawal named by its numeric id or its order number. */
const orderRef = z.object({ id: z.string().min(1).max(64) })

const listQuery = z.strictObject({
  /** Accepted like on every control call; the wallet's data is shared, so it narrows nothing. */
  scope: scopeNameSchema.optional(),
  player_id: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).optional(),
  page_size: z.coerce.number().int().min(1).max(200).optional(),
})

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
  const r = app.withTypeProvider<ZodTypeProvider>()

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

  r.get(
    '/deposits',
    { schema: { querystring: listQuery.extend({ status: depositStatusSchema.optional() }) } },
    async (request) => {
      const q = request.query
      return ok(
        wallet.deposits.history(q.player_id ?? null, { status: q.status, from: null, to: null }, pageOf(q)),
      )
    },
  )

  /** Confirms at once; a second call says it was already confirmed and credits nothing. */
  r.post('/deposits/:id/confirm', { schema: { params: orderRef } }, async (request) => {
    const id = depositId(request.params.id)
    const credited = wallet.deposits.confirm(id)
    const row = wallet.deposits.deposits.find(id)
    if (!row) throw notFound('充值订单不存在')
    return ok({ credited, order: wallet.deposits.order(row.player_id, id) })
  })

  r.get(
    '/withdrawals',
    { schema: { querystring: listQuery.extend({ status: withdrawalStatusSchema.optional() }) } },
    async (request) => {
      const q = request.query
      return ok(
        wallet.withdrawals.history(
          q.player_id ?? null,
          { status: q.status, from: null, to: null },
          pageOf(q),
        ),
      )
    },
  )

  r.post('/withdrawals/:id/approve', { schema: { params: orderRef } }, async (request) => {
    const id = withdrawalId(request.params.id)
    if (!wallet.withdrawals.approve(id)) throw fail('该提现已处理，不能再审核')
    return ok(wallet.withdrawals.find(id))
  })

  r.post(
    '/withdrawals/:id/reject',
    {
      schema: {
        params: orderRef,
        body: z.strictObject({ reason: z.string().min(1).max(100).optional() }).nullish(),
      },
    },
    async (request) => {
      const id = withdrawalId(request.params.id)
      if (!wallet.withdrawals.reject(id, request.body?.reason)) throw fail('该提现已处理，不能再审核')
      return ok(wallet.withdrawals.find(id))
    },
  )

  r.get('/wallet/settings', async () => ok(wallet.ctx.settings.raw))

  /** Changes the wallet's numbers until the next reset (which reads fixtures/wallet.json again). */
  r.put('/wallet/settings', { schema: { body: walletSettingsPatchSchema } }, async (request) => {
    wallet.ctx.settings.patch(request.body)
    return ok(wallet.ctx.settings.raw)
  })

  r.post(
    '/wallet/pay-password/:playerId/unlock',
    { schema: { params: z.object({ playerId: z.coerce.number().int().positive() }) } },
    async (request) => {
      immediate(wallet.ctx.db, () => wallet.withdrawals.guard.reset(request.params.playerId))
      return ok(null)
    },
  )

  /** Players whose balance differs from the sum of their ledger; empty when all is well. */
  r.get('/wallet/drift', async () => ok({ drift: ledger.drift() }))
}
