import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { EmuClock } from '../emulator/clock'
import { checkAnswers } from './answers'

export const DEMO = { phone: '13800138000', password: 'demo1234', payPassword: '123456' } as const

export interface TestApp {
  readonly app: FastifyInstance
  readonly clock: EmuClock
  /** Logs a player in through the real endpoint; returns the token and player id. */
  login(phone?: string, password?: string): Promise<{ token: string; playerId: number }>
  close(): Promise<void>
}

function multipart(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  const boundary = `----test${Math.random().toString(16).slice(2)}`
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  )
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

export { multipart as multipartBody }

/**
 * A whole server in emulator mode on an in-memory database, seeded from fixtures/. Every answer of a
 * contract endpoint is checked against the contract (`checkAnswers`): a test fails on an answer
 * outside it even when it reads only one field.
 */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const clock = new EmuClock()
  const app = await buildApp(
    testConfig({ RATE_LIMIT_LOGIN: '10000', RATE_LIMIT_REGISTER: '10000', RATE_LIMIT_SMS: '10000', ...env }),
    clock,
  )
  await app.ready()
  checkAnswers(app)
  return {
    app,
    clock,
    async login(phone = DEMO.phone, password = DEMO.password) {
      const { payload, headers } = multipart({ phone, password })
      const res = await app.inject({ method: 'POST', url: '/api/login', payload, headers })
      const body = res.json() as { code: number; msg?: string; data: { token: string; player_id: number } }
      if (body.code !== 1) throw new Error(`login failed: ${body.msg}`)
      return { token: body.data.token, playerId: body.data.player_id }
    },
    close: () => app.close(),
  }
}
