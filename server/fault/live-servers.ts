import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app'
import { testConfig } from '../config'
import { EmuClock } from '../emulator/clock'
import { listenOnLoopback as listen } from '../test-support/listen'
import { DEMO } from '../test-support/test-app'

export const ADMIN_TOKEN = 'test-admin-token-0123456789'

/** High rate limits, and a short games chain: these tests don't play, and a long chain costs CPU at start. */
const LIMITS = {
  RATE_LIMIT_LOGIN: '10000',
  RATE_LIMIT_REGISTER: '10000',
  RATE_LIMIT_SMS: '10000',
  GAME_CHAIN_LENGTH: '5000',
}

/** A server under test on a real socket: its own base URL, and the emulator behind it. */
export interface LiveServer {
  readonly mode: 'emulator' | 'proxy'
  /** Where players' and testers' calls go (the proxy in proxy mode). */
  readonly url: string
  /** The emulator's own address (the upstream in proxy mode). */
  readonly upstreamUrl: string
  readonly app: FastifyInstance
  readonly clock: EmuClock
  /** Headers every /__emu call to `url` needs. */
  readonly adminHeaders: Record<string, string>
  close(): Promise<void>
}

/**
 * Emulator mode: one server. Proxy mode: an emulator on one port and, in front of it, a proxy
 * with the control API turned on by an admin token; faults are set on the proxy.
 */
export async function startLive(
  mode: 'emulator' | 'proxy',
  env: Record<string, string> = {},
): Promise<LiveServer> {
  const upstreamClock = new EmuClock()
  const upstream = await buildApp(
    testConfig({ ...LIMITS, ...(mode === 'emulator' ? env : {}) }),
    upstreamClock,
  )
  const upstreamUrl = await listen(upstream)
  if (mode === 'emulator') {
    const token = env.EMU_ADMIN_TOKEN
    return {
      mode,
      url: upstreamUrl,
      upstreamUrl,
      app: upstream,
      clock: upstreamClock,
      adminHeaders: token ? { 'x-emu-admin-token': token } : {},
      close: () => upstream.close(),
    }
  }
  const clock = new EmuClock()
  const proxy = await buildApp(
    testConfig({ ...LIMITS, MODE: 'proxy', UPSTREAM_URL: upstreamUrl, EMU_ADMIN_TOKEN: ADMIN_TOKEN, ...env }),
    clock,
  )
  const url = await listen(proxy)
  return {
    mode,
    url,
    upstreamUrl,
    app: proxy,
    clock,
    adminHeaders: { 'x-emu-admin-token': env.EMU_ADMIN_TOKEN ?? ADMIN_TOKEN },
    async close() {
      await proxy.close()
      await upstream.close()
    },
  }
}

/** Logs in over the socket (multipart, as the app does). */
export async function liveLogin(
  base: string,
  headers: Record<string, string> = {},
  phone: string = DEMO.phone,
  password: string = DEMO.password,
): Promise<{ token: string; playerId: number }> {
  const form = new FormData()
  form.set('phone', phone)
  form.set('password', password)
  const res = await fetch(`${base}/api/login`, { method: 'POST', body: form, headers })
  const body = (await res.json()) as {
    code: number
    msg?: string
    data: { token: string; player_id: number }
  }
  if (body.code !== 1) throw new Error(`login failed: ${body.msg}`)
  return { token: body.data.token, playerId: body.data.player_id }
}
