import type { Db } from '@server/db/database'
import type { Publish } from '@server/realtime/event-hub'
import type { AccountRepository } from '../account/account-repository'
import type { PasswordGuard } from '../account/password-guard'
import type { EmuClock } from '../clock'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { ProtectionGuard } from '../protection/protection-guard'
import type { WalletSettingsHolder } from './wallet-settings'

/**
 * What the wallet's services share. Orders, ledger rows and daily limits use the world clock
 * (`clock.worldNow()`), which the ticker's confirmations and reviews follow. So does the
 * payment-password lock: a tester's scoped clock must never lift a security lock.
 */
export interface WalletContext {
  readonly db: Db
  readonly clock: EmuClock
  readonly ledger: LedgerRepository
  /** The players' balances and payment passwords are read through the account domain. */
  readonly accounts: AccountRepository
  /**
   * The payment password's counted lock, built by the composition root on the world clock, so no
   * scope's clock can lift it.
   */
  readonly payGuard: PasswordGuard
  /** Deposit limits, checked inside the order's transaction. */
  readonly protection: ProtectionGuard
  readonly settings: WalletSettingsHolder
  /** Order status changes go out on the push channel (once committed); nothing when left out. */
  readonly publish?: Publish
}

/** Refusals the player sees, as the server sends them. */
export const WALLET_MSG = {
  amountTooSmall: (min: string, unit = 'USDT') => `金额不能低于 ${min} ${unit}`,
  amountTooLarge: (max: string, unit = 'USDT') => `金额不能超过 ${max} ${unit}`,
  tooManyPendingDeposits: '未完成的充值订单过多，请等待到账后再试',
  depositNotFound: '充值订单不存在',
  insufficient: '余额不足',
  insufficientTrx: 'TRX 余额不足',
  walletNotFound: '提现地址不存在，请先绑定',
  walletDuplicate: '该地址已绑定',
  walletLimit: (max: number) => `最多绑定 ${max} 个地址`,
  dailyLimit: (left: string) => `超出今日提现额度，今日剩余 ${left} USDT`,
  noPayPassword: '请先设置支付密码',
  payPasswordWrong: (left: number) => `支付密码错误，还可尝试 ${left} 次`,
  payPasswordLockedNow: (wait: string) => `支付密码错误次数过多，提现已锁定 ${wait}`,
  payPasswordLocked: (wait: string) => `支付密码错误次数过多，请 ${wait}后再试`,
  withdrawalNotFound: '提现订单不存在',
  alreadyReviewed: '该提现已处理',
  pairUnknown: '不支持该兑换',
  exchangeTooSmall: '兑换数量过小',
} as const
