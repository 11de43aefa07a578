/**
 * One process of the concurrency test: its own server (and so its own SQLite connection) on the
 * shared database file, spending one account with withdrawals (through the HTTP route, payment
 * password and all) and bet debits (a ledger posting, as the games do). Prints one JSON line with
 * the outcome of every attempt.
 */
import { toMicro } from '../../../../shared/money'
import { buildApp } from '../../../app'
import { testConfig } from '../../../config'
import { immediate } from '../../../db/database'
import { InsufficientFundsError } from '../../ledger/ledger-repository'

export interface Outcome {
  readonly op: 'withdraw' | 'bet'
  readonly ok: boolean
  /** Micro-units the attempt takes from the balance when it succeeds. */
  readonly debitMicro: number
  readonly msg: string
}

const env = (name: string): string => {
  const v = process.env[name]
  if (!v) throw new Error(`${name} is required`)
  return v
}

async function main(): Promise<void> {
  const app = await buildApp(testConfig({ DB_PATH: env('DB_PATH'), RATE_LIMIT_LOGIN: '10000' }))
  await app.ready()
  const rounds = Number(env('ROUNDS'))
  const walletId = env('WALLET_ID')
  const withdrawAmount = env('WITHDRAW_AMOUNT')
  const betMicro = Number(env('BET_MICRO'))
  const feeMicro = Number(env('FEE_MICRO'))
  const boundary = '----hammer'
  const login = await app.inject({
    method: 'POST',
    url: '/api/login',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload:
      `--${boundary}\r\nContent-Disposition: form-data; name="phone"\r\n\r\n${env('PHONE')}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="password"\r\n\r\n${env('PASSWORD')}\r\n--${boundary}--\r\n`,
  })
  const { token, player_id: playerId } = login.json().data as { token: string; player_id: number }
  const withdrawMicro = toMicro(withdrawAmount)

  const outcomes: Outcome[] = []
  for (let i = 0; i < rounds; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/api2/withdraw',
      headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        wallet_id: walletId,
        amount: withdrawAmount,
        pay_password: env('PAY'),
      }).toString(),
    })
    const body = res.json() as { code: number; msg: string }
    outcomes.push({
      op: 'withdraw',
      ok: body.code === 1,
      debitMicro: withdrawMicro + feeMicro,
      msg: body.msg,
    })

    try {
      immediate(app.emu.db, () =>
        app.emu.ledger.post({
          playerId,
          currency: 'USDT',
          type: 'bet',
          amountMicro: -betMicro,
          at: app.emu.clock.now(),
        }),
      )
      outcomes.push({ op: 'bet', ok: true, debitMicro: betMicro, msg: '成功' })
    } catch (err) {
      if (!(err instanceof InsufficientFundsError)) throw err
      outcomes.push({ op: 'bet', ok: false, debitMicro: betMicro, msg: '余额不足' })
    }
  }
  await app.close()
  process.stdout.write(`${JSON.stringify(outcomes)}\n`)
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exit(1)
})
