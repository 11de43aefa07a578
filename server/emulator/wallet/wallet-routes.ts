import { contractRoute } from '@server/http/contract-route'
import { dateRange } from '@shared/business-day'
import {
  bindWallet,
  changeType,
  deleteWallet,
  exchange,
  fundFlow,
  getDepositHistory,
  getDepositOrder,
  getPayInfoUsdt,
  getWithdrawalHistory,
  getWithdrawConfig,
  listWallets,
  setDefaultWallet,
  usdtPay,
  withdraw,
} from '@shared/contract/wallet'
import { toMicro } from '@shared/money'
import type { FastifyInstance } from 'fastify'
import type { WalletDomain } from './wallet-domain'
import { pageOf } from './wallet-format'

/** The wallet: top-up, withdrawal, addresses, exchange, fund flow and histories. */
export async function walletRoutes(app: FastifyInstance, opts: { wallet: WalletDomain }): Promise<void> {
  const { wallet } = opts
  const { deposits, withdrawals } = wallet

  contractRoute(app, getPayInfoUsdt, ({ player }) => deposits.payInfo(player.id))
  // Atomic: the order, the key and the answer commit together, so no top-up key is ever left
  // "in progress" by a process that died.
  contractRoute(app, usdtPay, ({ player, body }) => deposits.create(player.id, toMicro(body.amount)), {
    atomic: true,
  })
  contractRoute(app, getDepositOrder, ({ player, query }) => deposits.order(player.id, query.id))
  contractRoute(app, getDepositHistory, ({ player, query }) =>
    deposits.history(
      player.id,
      { status: query.status, ...dateRange(query.start_date, query.end_date) },
      pageOf(query),
    ),
  )

  contractRoute(app, listWallets, ({ player }) => withdrawals.addressList(player.id))
  contractRoute(app, bindWallet, ({ player, body }) =>
    withdrawals.bind(player.id, {
      address: body.address,
      label: body.label,
      payPassword: body.pay_password,
      isDefault: body.is_default === '1' || body.is_default === 'true',
    }),
  )
  contractRoute(app, setDefaultWallet, ({ player, body }) => withdrawals.setDefault(player.id, body.id))
  contractRoute(app, deleteWallet, ({ player, body }) => withdrawals.remove(player.id, body.id))

  contractRoute(app, getWithdrawConfig, ({ player }) => withdrawals.config(player.id))
  contractRoute(app, withdraw, ({ player, body }) =>
    withdrawals.withdraw(player.id, body.wallet_id, toMicro(body.amount), body.pay_password),
  )
  contractRoute(app, getWithdrawalHistory, ({ player, query }) =>
    withdrawals.history(
      player.id,
      { status: query.status, ...dateRange(query.start_date, query.end_date) },
      pageOf(query),
    ),
  )

  contractRoute(app, changeType, () => wallet.exchange.pairs())
  contractRoute(
    app,
    exchange,
    ({ player, body }) => wallet.exchange.convert(player.id, body.from, body.to, toMicro(body.amount)),
    { atomic: true },
  )

  contractRoute(app, fundFlow, ({ player, query }) =>
    wallet.fundFlow(
      player.id,
      { type: query.type, currency: query.currency, ...dateRange(query.start_date, query.end_date) },
      pageOf(query),
    ),
  )
}
