import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '@server/app'
import { testConfig } from '@server/config'
import { parseAnswer } from '@server/test-support/answers'
import { DEMO, multipartBody } from '@server/test-support/test-app'
import { login as loginEndpoint } from '@shared/contract/account'
import { bindWallet, withdraw } from '@shared/contract/wallet'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EmuClock } from '../clock'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-restart-'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

async function start(clock: EmuClock): Promise<FastifyInstance> {
  const app = await buildApp(testConfig({ DB_PATH: join(dir, 'emulator.db') }), clock)
  await app.ready()
  return app
}

async function login(app: FastifyInstance): Promise<string> {
  const { payload, headers } = multipartBody({ phone: DEMO.phone, password: DEMO.password })
  const res = await app.inject({ method: 'POST', url: '/api/login', payload, headers })
  return parseAnswer(loginEndpoint, res.json()).data.token
}

async function withdrawWith(app: FastifyInstance, token: string, walletId: number, pay: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/api2/withdraw',
    payload: new URLSearchParams({ wallet_id: String(walletId), amount: '20', pay_password: pay }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', token },
  })
  return parseAnswer(withdraw, res.json())
}

describe('the payment-password lock', () => {
  it('holds across a restart on the same database, until the emulator clock passes it', async () => {
    const clock = new EmuClock()
    clock.freeze(Date.UTC(2030, 0, 1))
    const first = await start(clock)
    let walletId: number
    try {
      const token = await login(first)
      const bound = await first.inject({
        method: 'POST',
        url: '/api/api2/wallets/bind',
        payload: new URLSearchParams({
          address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          label: '主钱包',
          pay_password: DEMO.payPassword,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', token },
      })
      walletId = parseAnswer(bindWallet, bound.json()).data.list[0]?.id ?? 0
      for (let i = 0; i < 3; i++) expect((await withdrawWith(first, token, walletId, '999999')).code).toBe(0)
      expect((await withdrawWith(first, token, walletId, DEMO.payPassword)).msg).toMatch(
        /支付密码错误次数过多/,
      )
    } finally {
      await first.close()
    }

    clock.advance(60 * 60_000)
    const second = await start(clock)
    try {
      const token = await login(second)
      const refused = await withdrawWith(second, token, walletId, DEMO.payPassword)
      expect(refused.msg).toBe('支付密码错误次数过多，请 2小时后再试')
      clock.advance(2 * 60 * 60_000)
      expect((await withdrawWith(second, token, walletId, DEMO.payPassword)).code).toBe(1)
      expect(second.emu.ledger.drift()).toEqual([])
    } finally {
      await second.close()
    }
  })
})
