// @vitest-environment happy-dom
import { LOADING_TOAST_AFTER_MS, REQUEST_TIMEOUT_MS } from '@shared/constants'
import { announcement, getBalance, sendSms } from '@shared/contract/account'
import { announcementRoute, getBalanceRoute, readAnnouncementList } from '@shared/contract/first-screen'
import { placeBets } from '@shared/contract/games'
import { usdtPay } from '@shared/contract/wallet'
import { MSG } from '@shared/messages'
import { STORAGE_KEY } from '@shared/storage-keys'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { handTimers } from '../test-support/hand-timers'
import { happyDom } from '../test-support/happy-dom'
import { connectivity } from './connectivity'
import {
  ApiError,
  callApi,
  callApiEarly,
  callEndpoint,
  callRoute,
  newIdempotencyKey,
  RETRY_AFTER_503_MS,
  requestUrl,
  sessionLost,
  setApiOrigin,
  setHttpTimers,
  showsLoadingToast,
} from './http'
import { setNavigator } from './navigation'
import { takeAfterLogin } from './return-to'
import { session } from './session-store'
import * as toast from './toast'

/**
 * The HTTP client against answers the test writes (fetch replaced): what it sends, and how it reads
 * each kind of answer — what it throws, what the player is shown, where they are sent. http.test.ts
 * runs it against the emulator.
 */

const refusalsShown: unknown[] = []
vi.mock('../components/refusal-dialog/refusal-dialog', () => ({
  showRefusal: (refusal: unknown) => refusalsShown.push(refusal),
}))

interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: unknown
  credentials: string | undefined
}

let sent: Sent[]
let answer: (call: Sent, signal: AbortSignal | null | undefined) => Response | Promise<Response>
let timers: ReturnType<typeof handTimers>
let toasts: string[]
let loadingHeld: number
let loadingReleased: number
let navigations: { to: string; options: unknown }[]
let logged: unknown[][]

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const html = (status: number) => new Response('<h1>Page</h1>', { status })
const ok = (data: unknown) => json(200, { code: 1, msg: '成功', data })

beforeEach(() => {
  happyDom().setURL('http://app.test/cash?x=1')
  localStorage.clear()
  sessionStorage.clear()
  session.syncFromStorage()
  connectivity.markOnline()
  sent = []
  answer = () => ok(null)
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init = {}) => {
    const call: Sent = {
      url: String(input),
      method: String(init.method),
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: init.body,
      credentials: init.credentials,
    }
    sent.push(call)
    return answer(call, init.signal)
  })
  timers = handTimers()
  setHttpTimers(timers.timers)
  toasts = []
  vi.spyOn(toast, 'showToast').mockImplementation((text) => {
    toasts.push(text)
  })
  loadingHeld = 0
  loadingReleased = 0
  vi.spyOn(toast, 'holdLoadingToast').mockImplementation(() => {
    loadingHeld++
    return () => {
      loadingReleased++
    }
  })
  navigations = []
  setNavigator((to, options) => navigations.push({ to, options }))
  logged = []
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    logged.push(args)
  })
  refusalsShown.length = 0
})

afterEach(() => {
  vi.restoreAllMocks()
  setHttpTimers(null)
  setNavigator(null)
  setApiOrigin('')
  connectivity.markOnline()
})

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`)
  return err
}

/** Lets the promises already settled run their callbacks. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

const signedIn = (token = 'tok-7') => {
  session.signIn({
    token,
    player_id: 7,
    expires_at: 1_800_000_000,
    user_info: {
      player_id: 7,
      nickname: '玩家7',
      phone: '138****0007',
      invite_code: 'ABC123',
      has_pay_password: false,
      vip_level: 0,
      created_at: 1_700_000_000,
    },
  })
}

const BALANCE = { balance: '1.00', trx_balance: '2.00' }

describe('what a call sends', () => {
  it('a read without a session: JSON accepted, no token, no key, no content type, same-origin', async () => {
    answer = () => ok(BALANCE)
    expect(await callApi(getBalance, { query: { player_id: 7 } })).toEqual(BALANCE)
    expect(sent).toEqual([
      {
        url: '/api/api/getBalance?player_id=7',
        method: 'GET',
        headers: { accept: 'application/json' },
        body: undefined,
        credentials: 'same-origin',
      },
    ])
  })

  it('the stored token, and credentials included when the call must bypass a preload', async () => {
    signedIn()
    answer = () => ok({ list: [] })
    await callApi(announcement, {}, { bypassPreload: true })
    expect(sent[0]?.headers).toEqual({ accept: 'application/json', token: 'tok-7' })
    expect(sent[0]?.credentials).toBe('include')
  })

  it('a key on an idempotent call only: the one given, else a fresh one', async () => {
    signedIn()
    const order = { order_id: 'D1', amount: '12.5', address: 'T', status: 'pending', created_at: 1 }
    answer = () => ok(order)
    await callApi(usdtPay, { body: { amount: '12.5' } }, { idempotencyKey: 'my-key' }).catch(() => undefined)
    await callApi(usdtPay, { body: { amount: '12.5' } }).catch(() => undefined)
    await callApi(sendSms, { body: { phone: '13800138000', purpose: 'register' } }).catch(() => undefined)
    expect(sent.map((s) => s.headers['idempotency-key'])).toEqual([
      'my-key',
      expect.stringMatching(/^[0-9a-f]{32}$/),
      undefined,
    ])
    // A form body sets its own content type.
    expect(sent.map((s) => s.headers['content-type'])).toEqual([undefined, undefined, undefined])
  })

  it('a JSON body as JSON', async () => {
    signedIn()
    await callApi(placeBets, {
      body: { game: 'qukuai', round_id: '1', bets: [{ bet_type: 'big', amount: '1' }] },
    }).catch(() => undefined)
    expect(sent[0]?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(String(sent[0]?.body))).toMatchObject({ game: 'qukuai' })
  })

  it('to the origin set, without its trailing slash', () => {
    setApiOrigin('http://api.test:8080/')
    expect(requestUrl(getBalance, { player_id: 7 })).toBe(
      'http://api.test:8080/api/api/getBalance?player_id=7',
    )
    setApiOrigin('http://api.test:8080')
    expect(requestUrl(announcementRoute, undefined)).toBe('http://api.test:8080/api/api2/announcement')
    setApiOrigin('')
    expect(requestUrl(announcementRoute, undefined)).toBe('/api/api2/announcement')
  })

  it('fresh keys are 32 hex digits, two per byte', () => {
    vi.spyOn(crypto, 'getRandomValues').mockImplementation(
      <T extends ArrayBufferView | null>(array: T): T => {
        if (array instanceof Uint8Array) array.set(Array.from({ length: 16 }, (_, i) => i * 17))
        return array
      },
    )
    expect(newIdempotencyKey()).toBe('00112233445566778899aabbccddeeff')
  })
})

describe('the loading toast and the timers', () => {
  it('is held after LOADING_TOAST_AFTER_MS and let go with the answer; every timer is cleared', async () => {
    let respond: (r: Response) => void = () => undefined
    answer = () => new Promise((resolve) => (respond = resolve))
    const call = callApi(announcement)
    const loading = await timers.asked(LOADING_TOAST_AFTER_MS)
    expect([...timers.pending].map((t) => t.ms).sort((a, b) => a - b)).toEqual([
      LOADING_TOAST_AFTER_MS,
      REQUEST_TIMEOUT_MS,
    ])
    loading.fire()
    expect([loadingHeld, loadingReleased]).toEqual([1, 0])
    respond(ok({ list: [] }))
    await call
    expect([loadingHeld, loadingReleased]).toEqual([1, 1])
    expect(timers.pending.size).toBe(0)
  })

  it('a quick answer clears the delay: no loading toast comes later', async () => {
    answer = () => ok({ list: [] })
    await callApi(announcement)
    expect(timers.pending.size).toBe(0)
    expect(loadingHeld).toBe(0)
  })

  it('is off for the balance call, for bodies carrying a token, and on for others and for no body', () => {
    expect(showsLoadingToast(getBalance, undefined)).toBe(false)
    expect(showsLoadingToast(sendSms, { token: 'x' })).toBe(false)
    expect(showsLoadingToast(sendSms, null)).toBe(true)
    expect(showsLoadingToast(sendSms, 'token')).toBe(true)
    expect(showsLoadingToast(sendSms, { phone: '1' })).toBe(true)
  })
})

describe('answers that are not the envelope', () => {
  it.each([
    [200, 'invalid-response', `${MSG.requestFailed}（响应格式错误）`],
    [299, 'invalid-response', `${MSG.requestFailed}（响应格式错误）`],
    [300, 'http', `${MSG.requestFailed}（HTTP 300）`],
    [502, 'http', `${MSG.requestFailed}（HTTP 502）`],
  ] as const)('HTTP %i to a write: %s, shown as %s', async (status, kind, message) => {
    answer = () => html(status)
    const err = await rejection(callApi(sendSms, { body: { phone: '13800138000', purpose: 'register' } }))
    expect(err).toMatchObject({ kind, message, details: { status, method: 'POST' } })
    expect(toasts).toEqual([message])
  })

  it('a read answered with a page of another shape shows nothing: the page hides what needs it', async () => {
    answer = () => html(200)
    const err = await rejection(callApi(announcement))
    expect(err).toMatchObject({ kind: 'invalid-response', message: `${MSG.requestFailed}（响应格式错误）` })
    expect(toasts).toEqual([])
  })
})

describe('envelopes that are not a success', () => {
  const write = () => callApi(sendSms, { body: { phone: '13800138000', purpose: 'register' } })

  it('a key used for another request (422, 40900) is worded for the player', async () => {
    answer = () => json(422, { code: 40900, msg: 'Idempotency-Key mismatch' })
    expect((await rejection(write())).message).toBe(MSG.resubmit)
    expect(toasts).toEqual([MSG.resubmit])
  })

  it('40900 with another status, or 422 with another code, keeps the server’s words', async () => {
    answer = () => json(409, { code: 40900, msg: '相同的请求正在处理中' })
    expect((await rejection(write())).message).toBe('相同的请求正在处理中')
    answer = () => json(422, { code: 40000, msg: '手机号格式不正确' })
    expect((await rejection(write())).message).toBe('手机号格式不正确')
    expect(toasts).toEqual(['相同的请求正在处理中', '手机号格式不正确'])
  })

  it('a refusal without words says 请求失败', async () => {
    answer = () => json(200, { code: 0 })
    const err = await rejection(write())
    expect(err).toMatchObject({
      kind: 'business',
      message: MSG.requestFailed,
      details: { code: 0, status: 200 },
    })
    expect(err.name).toBe('ApiError')
    expect(toasts).toEqual([MSG.requestFailed])
  })

  it('a success code with an HTTP failure status is an HTTP failure, in the server’s words or its status', async () => {
    answer = () => json(500, { code: 1, msg: '服务器出错' })
    expect(await rejection(write())).toMatchObject({ kind: 'http', message: '服务器出错' })
    answer = () => json(300, { code: 1, data: null })
    expect(await rejection(write())).toMatchObject({
      kind: 'http',
      message: `${MSG.requestFailed}（HTTP 300）`,
    })
    expect(toasts).toEqual(['服务器出错', `${MSG.requestFailed}（HTTP 300）`])
    answer = () => json(299, { code: 1, msg: '成功', data: { resend_in: 60, expires_in: 300 } })
    expect(await write()).toEqual({ resend_in: 60, expires_in: 300 })
  })

  it('a quiet call shows nothing for a refusal', async () => {
    answer = () => json(200, { code: 0, msg: '余额不足' })
    const err = await rejection(
      callApi(sendSms, { body: { phone: '1', purpose: 'register' } }, { quiet: true }),
    )
    expect(err.message).toBe('余额不足')
    expect(toasts).toEqual([])
  })
})

describe('a refusal that protects the player', () => {
  const limit = '已达到每日充值限额，将于 2026-11-29 00:00 (北京时间) 重置'
  /** The dialog's module is loaded when first needed: once it is here, a dialog asked for is shown. */
  const dialogLoaded = async () => {
    await import('../components/refusal-dialog/refusal-dialog')
    await settle()
  }

  it('is shown in its dialog, not a toast', async () => {
    answer = () => json(200, { code: 0, msg: limit })
    await rejection(callApi(sendSms, { body: { phone: '1', purpose: 'register' } }))
    await dialogLoaded()
    expect(refusalsShown).toEqual([{ kind: 'deposit-limit', message: limit, until: '2026-11-29 00:00' }])
    expect(toasts).toEqual([])
  })

  it('nor in a dialog when the call is quiet, or the endpoint is missing', async () => {
    answer = () => json(200, { code: 0, msg: limit })
    await rejection(callApi(sendSms, { body: { phone: '1', purpose: 'register' } }, { quiet: true }))
    answer = () => json(200, { code: 40500, msg: limit })
    await rejection(callApi(sendSms, { body: { phone: '1', purpose: 'register' } }))
    await dialogLoaded()
    expect(refusalsShown).toEqual([])
    expect(toasts).toEqual([MSG.unsupported])
  })

  it('only a business refusal opens it: a server failure in those words is a toast', async () => {
    answer = () => json(500, { code: 1, msg: limit })
    await rejection(callApi(sendSms, { body: { phone: '1', purpose: 'register' } }))
    await dialogLoaded()
    expect(refusalsShown).toEqual([])
    expect(toasts).toEqual([limit])
  })
})

describe('a lost session', () => {
  it('HTTP 401 to a call sent with the stored token logs out and goes to the login page, coming back here', async () => {
    signedIn()
    answer = () => json(401, { code: 1, msg: 'ignored' })
    const err = await rejection(callApi(announcement))
    expect(err).toMatchObject({ kind: 'unauthorized', message: MSG.sessionExpired, details: { status: 401 } })
    expect(session.get().isLogin).toBe(false)
    expect(localStorage.getItem(STORAGE_KEY.token)).toBeNull()
    expect(toasts).toEqual([MSG.sessionExpired])
    expect(navigations).toEqual([{ to: '/login?isreg=0', options: { replace: true } }])
    expect(takeAfterLogin()).toBe('/cash?x=1')
  })

  it('the envelope’s own words, else the default', async () => {
    signedIn()
    answer = () => json(200, { code: 10001, msg: '您已在另一台设备登录' })
    expect(await rejection(callApi(announcement))).toMatchObject({
      kind: 'session',
      message: '您已在另一台设备登录',
      details: { code: 10001 },
    })
    signedIn()
    answer = () => json(200, { code: 401 })
    expect((await rejection(callApi(announcement))).message).toBe(MSG.sessionExpired)
    expect(toasts).toEqual(['您已在另一台设备登录', MSG.sessionExpired])
  })

  it('sessionLost, as the push channel calls it, says the default message unless given one', () => {
    signedIn()
    sessionLost()
    sessionLost('会话已结束')
    expect(toasts).toEqual([MSG.sessionExpired, '会话已结束'])
    expect(navigations.map((n) => n.options)).toEqual([{ replace: true }, { replace: true }])
  })
})

describe('no answer', () => {
  it('a lost connection: said once, with a log line, then the banner stands in', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'))
    expect(await rejection(callApi(announcement))).toMatchObject({ kind: 'network', message: MSG.network })
    expect(connectivity.online).toBe(false)
    expect(await rejection(callApi(announcement))).toMatchObject({ kind: 'network' })
    expect(toasts).toEqual([MSG.network])
    expect(logged.map((l) => l[0])).toEqual([
      'GET /api/api2/announcement failed',
      'GET /api/api2/announcement failed',
    ])
  })

  it('a quiet call that cannot connect shows nothing, but the app knows it is offline', async () => {
    answer = () => Promise.reject(new TypeError('Failed to fetch'))
    await rejection(callApi(announcement, {}, { quiet: true }))
    expect(toasts).toEqual([])
    expect(connectivity.online).toBe(false)
  })

  it('a time-out, loud or quiet', async () => {
    answer = (_, signal) =>
      new Promise((_, reject) =>
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )
    const loud = rejection(callApi(announcement))
    ;(await timers.asked(REQUEST_TIMEOUT_MS)).fire()
    expect(await loud).toMatchObject({ kind: 'timeout', message: MSG.timeout })
    const quiet = rejection(callApi(announcement, {}, { quiet: true }))
    ;(await timers.asked(REQUEST_TIMEOUT_MS)).fire()
    expect(await quiet).toMatchObject({ kind: 'timeout' })
    expect(toasts).toEqual([MSG.timeout])
    expect(connectivity.online).toBe(true)
  })

  it('a call its caller cancels: aborted, nothing shown, still online', async () => {
    const caller = new AbortController()
    answer = (_, signal) =>
      new Promise((_, reject) =>
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )
    const call = rejection(callApi(announcement, {}, { signal: caller.signal }))
    await settle()
    caller.abort()
    expect(await call).toMatchObject({ kind: 'aborted', message: 'aborted' })
    expect(toasts).toEqual([])
    expect(logged).toEqual([])
    expect(connectivity.online).toBe(true)
  })
})

describe('a busy server', () => {
  const busy = () => json(503, { code: 50300, msg: '服务繁忙' })

  it('a read cancelled while it waits to ask again is not asked again', async () => {
    const caller = new AbortController()
    answer = busy
    const call = rejection(callApi(announcement, {}, { signal: caller.signal }))
    await timers.asked(RETRY_AFTER_503_MS)
    caller.abort()
    expect(await call).toMatchObject({ kind: 'aborted' })
    expect(sent).toHaveLength(1)
    expect(timers.pending.size).toBe(0)
  })

  it('a read cancelled as the busy answer arrives does not wait to ask again', async () => {
    const caller = new AbortController()
    answer = () => {
      caller.abort()
      return busy()
    }
    let settled = false
    const call = rejection(callApi(announcement, {}, { signal: caller.signal })).finally(() => {
      settled = true
    })
    await settle()
    expect(settled).toBe(true)
    expect(await call).toMatchObject({ kind: 'aborted' })
    expect(sent).toHaveLength(1)
  })
})

describe('a busy server without words', () => {
  it('a read answered 503 with no body at all is asked again', async () => {
    const answers = [new Response(null, { status: 503 }), ok({ list: [] })]
    answer = () => answers.shift() ?? html(500)
    void timers.asked(RETRY_AFTER_503_MS).then((pause) => pause.fire())
    expect(await callApi(announcement)).toEqual({ list: [] })
    expect(sent).toHaveLength(2)
    expect(toasts).toEqual([])
  })
})

describe('the real timers, when no test holds them', () => {
  it('time the loading toast and the time-out, and clear both after an answer', async () => {
    setHttpTimers(null)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      answer = () => ok({ list: [] })
      await callApi(announcement)
      vi.advanceTimersByTime(REQUEST_TIMEOUT_MS)
      expect(loadingHeld).toBe(0)
      answer = (_, signal) =>
        new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        )
      const call = rejection(callApi(announcement))
      vi.advanceTimersByTime(LOADING_TOAST_AFTER_MS)
      expect(loadingHeld).toBe(1)
      vi.advanceTimersByTime(REQUEST_TIMEOUT_MS - LOADING_TOAST_AFTER_MS)
      expect(await call).toMatchObject({ kind: 'timeout' })
      expect(loadingReleased).toBe(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('the other ways to call', () => {
  it('callEndpoint parses with the endpoint’s schema, and is quiet when asked', async () => {
    answer = () => ok({ list: [] })
    expect(await callEndpoint(announcement)).toEqual({ list: [] })
    answer = () => ok({ list: 'no' })
    expect(
      await rejection(callEndpoint(sendSms, { body: { phone: '1', purpose: 'register' } }, { quiet: true })),
    ).toMatchObject({
      kind: 'invalid-response',
    })
    expect(
      await rejection(callEndpoint(sendSms, { body: { phone: '1', purpose: 'register' } })),
    ).toMatchObject({
      kind: 'invalid-response',
      message: `${MSG.requestFailed}（响应格式错误）`,
      details: { code: 1, envelope: { code: 1, msg: '成功', data: { list: 'no' } }, method: 'POST' },
    })
    expect(toasts).toEqual([`${MSG.requestFailed}（响应格式错误）`])
    expect(logged.map((l) => l[0])).toEqual([
      'POST /api/sms/send: data does not match the contract',
      'POST /api/sms/send: data does not match the contract',
    ])
  })

  it('callApiEarly is quiet when asked, for the answer’s shape too', async () => {
    answer = () => ok({ nickname: 1 })
    const err = await rejection(
      callApiEarly(
        sendSms,
        Promise.resolve(sendSms),
        { body: { phone: '1', purpose: 'register' } },
        { quiet: true },
      ),
    )
    expect(err.kind).toBe('invalid-response')
    expect(toasts).toEqual([])
    answer = () => ok(BALANCE)
    expect(
      await callApiEarly(getBalanceRoute, Promise.resolve(getBalance), { query: { player_id: 7 } }),
    ).toEqual(BALANCE)
  })

  it('callRoute says which route broke the contract, and how', async () => {
    answer = () => ok({ list: [{ id: 'x' }] })
    const err = await rejection(callRoute(announcementRoute, readAnnouncementList))
    expect(err).toMatchObject({
      kind: 'invalid-response',
      message: `${MSG.requestFailed}（响应格式错误）`,
      details: { code: 1, method: 'GET' },
    })
    expect(logged).toEqual([['GET /api/api2/announcement: data does not match the contract']])
  })
})

describe('a protection dialog that cannot load', () => {
  it('leaves the refusal in a toast, and says why in the log', async () => {
    // A fresh HTTP client whose dialog module fails to load (a chunk lost to a new deployment).
    vi.resetModules()
    vi.doMock('../components/refusal-dialog/refusal-dialog', () => {
      throw new Error('chunk failed')
    })
    const fresh = await import('./http')
    const freshToast = await import('./toast')
    const shown: string[] = []
    vi.spyOn(freshToast, 'showToast').mockImplementation((text) => {
      shown.push(text)
    })
    fresh.setHttpTimers(timers.timers)
    const limit = '已达到每周亏损限额，将于 2026-11-30 00:00 (北京时间) 重置'
    answer = () => json(200, { code: 0, msg: limit })
    await fresh.callApi(sendSms, { body: { phone: '1', purpose: 'register' } }).catch(() => undefined)
    await vi.waitFor(() => expect(shown).toEqual([limit]))
    expect(refusalsShown).toEqual([])
    expect(logged.map((l) => l[0])).toEqual(['refusal dialog could not load'])
    fresh.setHttpTimers(null)
    vi.doUnmock('../components/refusal-dialog/refusal-dialog')
  })
})
