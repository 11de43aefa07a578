import { immediate } from '@server/db/database'
import { fail } from '@server/http/api-error'
import { exchangeQuoteMicro, type WalletCurrency } from '@shared/contract/wallet'
import { formatMoney } from '@shared/money'
import { InsufficientFundsError } from '../ledger/insufficient-funds'
import { WALLET_MSG, type WalletContext } from './wallet-context'
import { orderNo } from './wallet-format'

/** USDT ↔ TRX at the fixture's rates: both balances move in one transaction, as two ledger rows. */
export class ExchangeService {
  constructor(private readonly ctx: WalletContext) {}

  pairs() {
    return {
      pairs: this.ctx.settings.current.exchange.pairs.map((p) => ({
        from: p.from,
        to: p.to,
        rate: p.rate,
        min_amount: formatMoney(p.minMicro),
        max_amount: formatMoney(p.maxMicro),
      })),
    }
  }

  convert(playerId: number, from: WalletCurrency, to: WalletCurrency, amountMicro: number) {
    const pair = this.ctx.settings.current.exchange.pairs.find((p) => p.from === from && p.to === to)
    if (!pair) throw fail(WALLET_MSG.pairUnknown)
    if (amountMicro < pair.minMicro) throw fail(WALLET_MSG.amountTooSmall(formatMoney(pair.minMicro), from))
    if (amountMicro > pair.maxMicro) throw fail(WALLET_MSG.amountTooLarge(formatMoney(pair.maxMicro), from))
    const received = exchangeQuoteMicro(amountMicro, pair.rate)
    if (received <= 0) throw fail(WALLET_MSG.exchangeTooSmall)
    try {
      return immediate(this.ctx.db, () => {
        const now = this.ctx.clock.worldNow()
        const ref = orderNo('X', now)
        const memo = `${from} → ${to}，汇率 ${pair.rate}`
        const paid = this.ctx.ledger.post({
          playerId,
          currency: from,
          type: 'exchange',
          amountMicro: -amountMicro,
          ref,
          memo,
          at: now,
        })
        const got = this.ctx.ledger.post({
          playerId,
          currency: to,
          type: 'exchange',
          amountMicro: received,
          ref,
          memo,
          at: now,
        })
        const usdt = from === 'USDT' ? paid.balanceAfterMicro : got.balanceAfterMicro
        const trx = from === 'TRX' ? paid.balanceAfterMicro : got.balanceAfterMicro
        return {
          from,
          to,
          amount: formatMoney(amountMicro),
          received: formatMoney(received),
          rate: pair.rate,
          ref,
          balance: formatMoney(usdt),
          trx_balance: formatMoney(trx),
        }
      })
    } catch (err) {
      if (err instanceof InsufficientFundsError)
        throw fail(from === 'TRX' ? WALLET_MSG.insufficientTrx : WALLET_MSG.insufficient)
      throw err
    }
  }
}
