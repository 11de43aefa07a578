import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '@server/app'
import { testConfig } from '@server/config'
import { fingerprintOf, IdempotencyStore, REPLAYED_HEADER } from '@server/http/idempotency'
import { DEMO, multipartBody } from '@server/test-support/test-app'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { EmuClock } from '../clock'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idempotency-restart-'))
})
afterEach(() => {
  vi.restoreAllMocks()
  rmSync(dir, { recursive: true, force: true })
})

async function start(): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ DB_PATH: join(dir, 'emulator.db') }), new EmuClock())
  await app.ready()
  return app
}

async function login(app: FastifyInstance): Promise<{ token: string; playerId: number }> {
  const { payload, headers } = multipartBody({ phone: DEMO.phone, password: DEMO.password })
  const res = await app.inject({ method: 'POST', url: '/api/login', payload, headers })
  const data = res.json().data
  return { token: data.token, playerId: data.player_id }
}

const post = (
  app: FastifyInstance,
  token: string,
  url: string,
  fields: Record<string, string>,
  key: string,
) =>
  app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', token, 'idempotency-key': key },
  })

const ADDR = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'

describe('idempotency keys "in progress" when the server stops', () => {
  it('are resolved at start-up from what was written: replayed if written, run afresh if not', async () => {
    const first = await start()
    const { token, playerId } = await login(first)
    const bind = await post(
      first,
      token,
      '/api/api2/wallets/bind',
      { address: ADDR, label: '钱包', pay_password: DEMO.payPassword },
      'bind-1',
    )
    const walletId = String(bind.json().data.list[0].id)
    const withdrawBody = { wallet_id: walletId, amount: '20', pay_password: DEMO.payPassword }

    // The process "dies" after each call's commit, before the answer is stored the usual way.
    // biome-ignore lint/suspicious/noExplicitAny: reaching the private step a crash would skip
    vi.spyOn(IdempotencyStore.prototype as any, 'store').mockImplementation(() => {})
    const withdrawn = await post(first, token, '/api/api2/withdraw', withdrawBody, 'withdraw-1')
    expect(withdrawn.json().code).toBe(1)
    const topUp = await post(first, token, '/api/usdtpay', { amount: '30' }, 'topup-1')
    expect(topUp.json().code).toBe(1)
    // A withdrawal that died during its password check: its key was taken, nothing written.
    first.emu.db
      .prepare(
        `INSERT INTO idempotency_keys (player_id, key, fingerprint, state, created_at, endpoint)
         VALUES (?, 'withdraw-2', ?, 'pending', ?, 'withdraw')`,
      )
      .run(
        playerId,
        fingerprintOf('withdraw', { ...withdrawBody, wallet_id: Number(walletId) }),
        first.emu.clock.now(),
      )
    const rows = () => first.emu.db.prepare('SELECT COUNT(*) FROM withdrawals').pluck().get()
    expect(rows()).toBe(1)
    await first.close()
    vi.restoreAllMocks()

    const second = await start()
    const again = await post(second, token, '/api/api2/withdraw', withdrawBody, 'withdraw-1')
    expect(again.headers[REPLAYED_HEADER]).toBe('true')
    expect(again.json()).toEqual(withdrawn.json())
    const topUpAgain = await post(second, token, '/api/usdtpay', { amount: '30' }, 'topup-1')
    expect(topUpAgain.headers[REPLAYED_HEADER]).toBe('true')
    expect(topUpAgain.json()).toEqual(topUp.json())
    const retried = await post(second, token, '/api/api2/withdraw', withdrawBody, 'withdraw-2')
    expect(retried.headers[REPLAYED_HEADER]).toBeUndefined()
    expect(retried.json().code).toBe(1)
    expect(second.emu.db.prepare('SELECT COUNT(*) FROM withdrawals').pluck().get()).toBe(2)
    expect(
      second.emu.db.prepare('SELECT COUNT(*) FROM deposits WHERE amount_micro = 30000000').pluck().get(),
    ).toBe(1)
    expect(
      second.emu.db.prepare(`SELECT COUNT(*) FROM idempotency_keys WHERE state = 'pending'`).pluck().get(),
    ).toBe(0)
    await second.close()
  })
})
