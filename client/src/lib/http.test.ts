// @vitest-environment happy-dom
import type { AddressInfo } from 'node:net'
import { createTestApp, DEMO, type TestApp } from '@server/test-support/test-app'
import { LOADING_TOAST_AFTER_MS, REQUEST_TIMEOUT_MS } from '@shared/constants'
import { getBalance, login, sendSms, userInfo } from '@shared/contract/account'
import { announcementRoute, getBalanceRoute, readAnnouncementList } from '@shared/contract/first-screen'
import { ENDPOINTS } from '@shared/contract/registry'
import type { FaultRuleInput } from '@shared/emu-control'
import { MSG } from '@shared/messages'
import { STORAGE_KEY } from '@shared/storage-keys'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { handTimers } from '../test-support/hand-timers'
import { happyDom } from '../test-support/happy-dom'
import { untilGone, untilShown } from '../test-support/until'
import { connectivity } from './connectivity'
import { classifyFailure } from './endpoint-status'
import {
  ApiError,
  callApi,
  callApiEarly,
  callRoute,
  newIdempotencyKey,
  RETRY_AFTER_503_MS,
  setApiOrigin,
  setHttpTimers,
  showsLoadingToast,
} from './http'
import { setNavigator } from './navigation'
import { takeAfterLogin } from './return-to'
import { session } from './session-store'
import * as toast from './toast'
import { clearToast } from './toast'

let server: TestApp
const navigations: string[] = []

beforeAll(async () => {
  server = await createTestApp()
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = server.app.server.address() as AddressInfo
  // The page and the API share an origin, as in production; relative /api paths resolve to it.
  const origin = `http://127.0.0.1:${port}`
  happyDom().setURL(`${origin}/home`)
  setApiOrigin('')
  setNavigator((to) => navigations.push(to))
  // The server's first login (password hashing, the route's first run) is the slowest call: made
  // here, under the hook's longer limit, not in the first test.
  await server.login()
})

afterAll(async () => {
  setHttpTimers(null)
  setNavigator(null)
  await server.close()
})

/**
 * The client's timers (request time-out, loading-toast delay, pause before a retry), fired by the
 * test: none goes off unless a test fires it, so a call to the server takes as long as it takes.
 */
let timers = handTimers()

beforeEach(() => {
  localStorage.clear()
  navigations.length = 0
  timers = handTimers()
  setHttpTimers(timers.timers)
})

afterEach(async () => {
  clearToast()
  const cleared = await server.app.inject({ method: 'DELETE', url: '/__emu/faults?scope=*' })
  expect(cleared.statusCode).toBe(200)
})

/** Resolves when the server's fault layer next fires a rule (it holds a hung call from then on). */
function nextFiring(): Promise<void> {
  return new Promise((resolve) => {
    const off = server.app.faults.onFiring(() => {
      off()
      resolve()
    })
  })
}

async function addFault(rule: FaultRuleInput): Promise<void> {
  const res = await server.app.inject({ method: 'POST', url: '/__emu/faults', payload: rule })
  expect(res.statusCode).toBe(200)
}

async function signIn() {
  const data = await callApi(login, { body: { phone: DEMO.phone, password: DEMO.password } })
  session.signIn(data)
  return data
}

/** The toasts asked for while `run` ran, so one that came and went is still seen. */
async function shownDuring<T>(
  run: () => Promise<T>,
): Promise<{ texts: string; result: PromiseSettledResult<T> }> {
  const shown = vi.spyOn(toast, 'showToast')
  try {
    const [result] = await Promise.allSettled([run()])
    return {
      texts: shown.mock.calls.map(([text]) => text).join('\n'),
      result: result as PromiseSettledResult<T>,
    }
  } finally {
    shown.mockRestore()
  }
}

/** The toast shows (antd-mobile's first render can be slow on a busy machine: no deadline). */
async function expectToast(text: string) {
  await untilShown(text)
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`)
  return err
}

describe('callApi against the emulator', () => {
  it('logs in with a multipart body and sends the stored token on later calls', async () => {
    const data = await signIn()
    expect(data.token).toMatch(/.+/)
    expect(localStorage.getItem(STORAGE_KEY.token)).toBe(data.token)
    const info = await callApi(userInfo, { query: { player_id: data.player_id } })
    expect(info.player_id).toBe(data.player_id)
    const balance = await callApi(getBalance, { query: { player_id: data.player_id } })
    expect(balance.balance).toBe('1000.00')
  })

  it('sends urlencoded forms', async () => {
    const phone = `139${String(Date.now()).slice(-8)}`
    const data = await callApi(sendSms, { body: { phone, purpose: 'register' } })
    expect(data.resend_in).toBeGreaterThan(0)
  })

  it('turns body code 10001 into the default message, clears the login and goes to /login?isreg=0', async () => {
    const data = await signIn()
    await addFault({ match: { path: '/api/users/info' }, action: { type: 'envelope', code: 10001 } })
    const err = await rejection(callApi(userInfo, { query: { player_id: data.player_id } }))
    expect(err.kind).toBe('session')
    await expectToast(MSG.sessionExpired)
    expect(localStorage.getItem(STORAGE_KEY.token)).toBeNull()
    expect(localStorage.getItem(STORAGE_KEY.isLogin)).toBeNull()
    expect(localStorage.getItem(STORAGE_KEY.loginData)).toBeNull()
    expect(session.get().isLogin).toBe(false)
    expect(navigations).toEqual(['/login?isreg=0'])
    // The login that follows brings the player back to the page the session was lost on.
    expect(takeAfterLogin()).toBe('/home')
  })

  it.each([
    ['logged out', () => session.signOut()],
    ['logged in again', () => localStorage.setItem(STORAGE_KEY.token, 'a-newer-token')],
  ])('leaves the session alone when a call sent before the player %s answers 10001', async (_, change) => {
    const data = await signIn()
    await addFault({ match: { path: '/api/users/info' }, action: { type: 'envelope', code: 10001 } })
    const { texts, result } = await shownDuring(async () => {
      const call = callApi(userInfo, { query: { player_id: data.player_id } })
      change()
      return call
    })
    expect(result.status).toBe('rejected')
    expect(texts).not.toContain(MSG.sessionExpired)
    expect(navigations).toEqual([])
  })

  it('treats a missing token as a lost session (the server answers 10001)', async () => {
    const err = await rejection(callApi(userInfo, { query: { player_id: 1 } }))
    expect(err.kind).toBe('session')
    expect(navigations).toEqual(['/login?isreg=0'])
  })

  it('shows the message of body code 401 and clears the same keys', async () => {
    const data = await signIn()
    await addFault({
      match: { path: '/api/users/info' },
      action: { type: 'envelope', code: 401, msg: '请重新登录' },
    })
    const err = await rejection(callApi(userInfo, { query: { player_id: data.player_id } }))
    expect(err.kind).toBe('session')
    await expectToast('请重新登录')
    expect(localStorage.getItem(STORAGE_KEY.token)).toBeNull()
    expect(localStorage.getItem(STORAGE_KEY.userInfo)).not.toBeNull()
    expect(navigations).toEqual(['/login?isreg=0'])
  })

  it('treats HTTP 401 as a lost session whatever the body says', async () => {
    const data = await signIn()
    await addFault({
      match: { path: '/api/api/getBalance' },
      action: { type: 'status', status: 401, body: { code: 1, msg: 'ignored', data: null } },
    })
    const err = await rejection(callApi(getBalance, { query: { player_id: data.player_id } }))
    expect(err.kind).toBe('unauthorized')
    await expectToast(MSG.sessionExpired)
    expect(localStorage.getItem(STORAGE_KEY.loginData)).toBeNull()
    expect(navigations).toEqual(['/login?isreg=0'])
  })

  it.each([
    [{ message: 'message 文本', msg: 'msg 文本' }, 'message 文本'],
    [{ msg: 'msg 文本' }, 'msg 文本'],
    [{}, MSG.requestFailed],
  ])('shows message, else msg, else 请求失败 for other codes (%o)', async (texts, shown) => {
    await addFault({
      match: { path: '/api/api2/announcement' },
      action: { type: 'envelope', code: 0, ...texts },
    })
    const { announcement } = await import('@shared/contract/account')
    const err = await rejection(callApi(announcement))
    expect(err.kind).toBe('business')
    expect(err.message).toBe(shown)
    expect(err.details.code).toBe(0)
    await expectToast(shown)
    expect(navigations).toEqual([])
  })

  it('quiet calls throw without a toast, for probing an endpoint an upstream may lack', async () => {
    await addFault({
      match: { path: '/api/sms/send' },
      action: { type: 'status', status: 404, body: 'Not Found' },
    })
    const shown = vi.spyOn(toast, 'showToast')
    const body = { phone: '13800138000', purpose: 'register' } as const
    try {
      // A loud call asks for its toast before it rejects; a quiet one never does.
      await rejection(callApi(sendSms, { body }))
      expect(shown).toHaveBeenCalledWith(MSG.unsupported)
      shown.mockClear()
      const err = await rejection(callApi(sendSms, { body }, { quiet: true }))
      expect(err).toMatchObject({ kind: 'http', message: MSG.unsupported, details: { status: 404 } })
      expect(shown).not.toHaveBeenCalled()
    } finally {
      shown.mockRestore()
    }
    expect(navigations).toEqual([])
  })

  it('reports a connection reset as a network error', async () => {
    await addFault({ match: { path: '/api/api2/announcement' }, action: { type: 'reset' } })
    const { announcement } = await import('@shared/contract/account')
    const err = await rejection(callApi(announcement))
    expect(err.kind).toBe('network')
    await expectToast(MSG.network)
  })

  it('gives up after 10 s with the timeout message', async () => {
    const rule = { match: { path: '/api/api2/announcement' }, action: { type: 'hang' } } as const
    await addFault(rule)
    const { announcement } = await import('@shared/contract/account')
    let settled = false
    const pending = rejection(callApi(announcement)).finally(() => {
      settled = true
    })
    const timeout = await timers.asked(REQUEST_TIMEOUT_MS)
    // The server holds the call: an answer to a second one comes back while it still waits.
    await fetch('/__emu/faults?scope=*')
    expect(settled).toBe(false)
    timeout.fire()
    const err = await pending
    expect(err.kind).toBe('timeout')
    await expectToast(MSG.timeout)
  })

  it('rejects a successful envelope whose data breaks the contract', async () => {
    const data = await signIn()
    await addFault({
      match: { path: '/api/api/getBalance' },
      action: { type: 'envelope', code: 1, data: { balance: 12 } },
    })
    const err = await rejection(callApi(getBalance, { query: { player_id: data.player_id } }))
    expect(err.kind).toBe('invalid-response')
  })

  it('shows the loading toast for a slow call but not for the balance call', async () => {
    const data = await signIn()
    const query = { player_id: data.player_id }
    await addFault({ match: { path: '/api/users/info' }, action: { type: 'hang' } })
    await addFault({ match: { path: '/api/api/getBalance' }, action: { type: 'hang' } })
    const held = vi.spyOn(toast, 'holdLoadingToast')
    const slow = new AbortController()
    const balance = new AbortController()
    try {
      const slowHeld = nextFiring()
      const slowCall = callApi(userInfo, { query }, { signal: slow.signal }).catch(() => undefined)
      const loading = await timers.asked(LOADING_TOAST_AFTER_MS)
      expect(held).not.toHaveBeenCalled()
      loading.fire()
      expect(held).toHaveBeenCalledTimes(1)
      await expectToast(MSG.loading)
      await slowHeld
      slow.abort()
      await slowCall
      await untilGone(MSG.loading)

      const balanceHeld = nextFiring()
      const balanceCall = callApi(getBalance, { query }, { signal: balance.signal }).catch(() => undefined)
      // Its time-out is set; no loading toast's delay is.
      await timers.asked(REQUEST_TIMEOUT_MS)
      await balanceHeld
      expect([...timers.pending].map((t) => t.ms)).toEqual([REQUEST_TIMEOUT_MS])
      expect(held).toHaveBeenCalledTimes(1)
      balance.abort()
      await balanceCall
    } finally {
      slow.abort()
      balance.abort()
      held.mockRestore()
    }
  })
})

/**
 * Each way an upstream says it lacks an endpoint, as the fault layer scripts it (docs/testing.md):
 * every one is classified `missing` (lib/endpoint-status.ts), so the pages' one code path for a
 * missing endpoint covers them all, and the browser test of the pages (e2e/missing-endpoints.spec.ts)
 * need not try each on every endpoint.
 */
const MISSING_ANSWERS: readonly {
  name: string
  action: FaultRuleInput['action']
  /** What a write answered this way shows: the same, unless said otherwise. */
  write?: { failure: 'refused' | 'missing'; toast: string }
}[] = [
  { name: 'HTTP 404 with the fault layer’s envelope', action: { type: 'status', status: 404 } },
  { name: 'HTTP 404 with an HTML page', action: { type: 'status', status: 404, body: '<h1>Not Found</h1>' } },
  { name: 'HTTP 405 with the fault layer’s envelope', action: { type: 'status', status: 405 } },
  { name: 'HTTP 405 with an empty body', action: { type: 'status', status: 405, body: '' } },
  { name: 'HTTP 501', action: { type: 'status', status: 501 } },
  { name: 'envelope code 40500', action: { type: 'envelope', code: 40500, msg: '请求方法不支持' } },
  {
    name: 'an unknown envelope code',
    action: { type: 'envelope', code: 99999, msg: '服务维护中' },
    // To a write, a code of the upstream's own is its refusal, in its words.
    write: { failure: 'refused', toast: '服务维护中' },
  },
  {
    name: 'a success of another shape',
    action: { type: 'envelope', code: 1, data: { items: [] } },
    // The write may have done its work: not worded as a missing endpoint.
    write: { failure: 'missing', toast: `${MSG.requestFailed}（响应格式错误）` },
  },
]

describe('an endpoint the server does not offer', () => {
  for (const {
    name,
    action,
    write: writeShows = { failure: 'missing', toast: MSG.unsupported },
  } of MISSING_ANSWERS) {
    it(`${name}: a read is missing and shows no toast; a write says ${writeShows.toast}`, async () => {
      await addFault({ match: { path: '/api/api2/announcement' }, action })
      await addFault({ match: { path: '/api/sms/send' }, action })
      const { announcement } = await import('@shared/contract/account')
      const shown = vi.spyOn(toast, 'showToast')
      try {
        const read = await rejection(callApi(announcement))
        expect(classifyFailure(read)).toBe('missing')
        expect(shown).not.toHaveBeenCalled()
        const write = await rejection(
          callApi(sendSms, { body: { phone: '13800138000', purpose: 'register' } }),
        )
        expect(classifyFailure(write)).toBe(writeShows.failure)
        expect(shown).toHaveBeenCalledWith(writeShows.toast)
      } finally {
        shown.mockRestore()
      }
      expect(navigations).toEqual([])
    })
  }

  it('a refusal with a known code is a refusal, shown in its own words', async () => {
    await addFault({
      match: { path: '/api/sms/send' },
      action: { type: 'envelope', code: 0, msg: '验证码发送过于频繁，请稍后再试' },
    })
    const err = await rejection(callApi(sendSms, { body: { phone: '13800138000', purpose: 'register' } }))
    expect(classifyFailure(err)).toBe('refused')
    expect(err.message).toBe('验证码发送过于频繁，请稍后再试')
    await expectToast('验证码发送过于频繁，请稍后再试')
  })

  it('a lost connection and a server failure are neither: the call may be tried again', async () => {
    await addFault({ match: { path: '/api/api2/announcement' }, action: { type: 'reset' }, times: 1 })
    const { announcement } = await import('@shared/contract/account')
    expect(classifyFailure(await rejection(callApi(announcement)))).toBe('unreachable')
    await addFault({
      match: { path: '/api/api2/announcement' },
      action: { type: 'status', status: 502, body: '<h1>Bad Gateway</h1>' },
    })
    expect(classifyFailure(await rejection(callApi(announcement)))).toBe('unreachable')
  })
})

describe('first-screen calls, sent before zod has loaded', () => {
  it('callApiEarly sends the request at once and parses the answer once the endpoint is there', async () => {
    const data = await signIn()
    const sent = vi.spyOn(globalThis, 'fetch')
    let loadEndpoint: (endpoint: typeof getBalance) => void = () => undefined
    const endpoint = new Promise<typeof getBalance>((resolve) => {
      loadEndpoint = resolve
    })
    try {
      const call = callApiEarly(getBalanceRoute, endpoint, { query: { player_id: data.player_id } })
      expect(sent).toHaveBeenCalledTimes(1)
      expect(String(sent.mock.calls[0]?.[0])).toBe(`/api/api/getBalance?player_id=${data.player_id}`)
      loadEndpoint(getBalance)
      expect((await call).balance).toBe('1000.00')
    } finally {
      sent.mockRestore()
    }
  })

  it('callApiEarly still rejects data that breaks the contract', async () => {
    const data = await signIn()
    await addFault({
      match: { path: '/api/api/getBalance' },
      action: { type: 'envelope', code: 1, data: { balance: 12 } },
    })
    const err = await rejection(
      callApiEarly(getBalanceRoute, Promise.resolve(getBalance), { query: { player_id: data.player_id } }),
    )
    expect(err.kind).toBe('invalid-response')
  })

  it('callRoute reads the answer with the plain reader given', async () => {
    const answer = await callRoute(announcementRoute, readAnnouncementList)
    expect(answer.list.length).toBeGreaterThan(0)
    await addFault({
      match: { path: announcementRoute.path },
      action: { type: 'envelope', code: 1, data: { list: [{ id: 'x' }] } },
    })
    const shown = vi.spyOn(toast, 'showToast')
    try {
      const err = await rejection(callRoute(announcementRoute, readAnnouncementList))
      expect(err.kind).toBe('invalid-response')
      // A read of another shape is a missing endpoint: the page hides or explains, no toast.
      expect(shown).not.toHaveBeenCalled()
    } finally {
      shown.mockRestore()
    }
  })
})

describe('a busy server and a lost connection', () => {
  const busy = {
    type: 'status',
    status: 503,
    body: { code: 503, msg: '服务繁忙，请稍后重试', data: null },
  } as const

  it('asks again once after a 503 on a read, and the player sees nothing when that works', async () => {
    await addFault({ match: { path: '/api/api2/announcement' }, action: busy, times: 1 })
    const { announcement } = await import('@shared/contract/account')
    void timers.asked(RETRY_AFTER_503_MS).then((pause) => pause.fire())
    const call = await shownDuring(() => callApi(announcement))
    expect(call.result.status).toBe('fulfilled')
    expect(call.texts).not.toContain('服务繁忙')
  })

  it('tells the player when the second try is busy too', async () => {
    await addFault({ match: { path: '/api/api2/announcement' }, action: busy, times: 2 })
    const { announcement } = await import('@shared/contract/account')
    void timers.asked(RETRY_AFTER_503_MS).then((pause) => pause.fire())
    const err = await rejection(callApi(announcement))
    expect(err.details.status).toBe(503)
    await expectToast('服务繁忙，请稍后重试')
  })

  it('never sends a write twice', async () => {
    await addFault({ match: { path: '/api/sms/send' }, action: busy, times: 1 })
    const err = await rejection(callApi(sendSms, { body: { phone: '13700000001', purpose: 'register' } }))
    expect(err.details.status).toBe(503)
  })

  it('says a lost connection once, then the banner state stands in until the server answers', async () => {
    await addFault({ match: { path: '/api/api2/announcement' }, action: { type: 'reset' }, times: 2 })
    const { announcement } = await import('@shared/contract/account')
    expect((await rejection(callApi(announcement))).kind).toBe('network')
    await expectToast(MSG.network)
    expect(connectivity.online).toBe(false)
    clearToast()
    await untilGone(MSG.network)
    const again = await shownDuring(() => callApi(announcement))
    expect(again.result.status).toBe('rejected')
    expect(again.texts).not.toContain(MSG.network)
    // The server answers again: online, and the next failure would be told again.
    await callApi(announcement)
    expect(connectivity.online).toBe(true)
  })
})

describe('idempotent calls', () => {
  it('send one key per submission, so a retried top-up creates one order', async () => {
    await signIn()
    const { usdtPay } = await import('@shared/contract/wallet')
    const key = newIdempotencyKey()
    const first = await callApi(usdtPay, { body: { amount: '12.5' } }, { idempotencyKey: key })
    const again = await callApi(usdtPay, { body: { amount: '12.5' } }, { idempotencyKey: key })
    const other = await callApi(usdtPay, { body: { amount: '12.5' } })
    expect(again).toEqual(first)
    expect(other).not.toEqual(first)
  })

  it('never shows players the refusal of a key used for another request', async () => {
    await signIn()
    const { usdtPay } = await import('@shared/contract/wallet')
    const key = newIdempotencyKey()
    await callApi(usdtPay, { body: { amount: '12.5' } }, { idempotencyKey: key })
    const { texts, result } = await shownDuring(() =>
      callApi(usdtPay, { body: { amount: '13' } }, { idempotencyKey: key }),
    )
    expect(result.status).toBe('rejected')
    const err = (result as PromiseRejectedResult).reason as ApiError
    expect(err.details.status).toBe(422)
    expect(err.message).toBe(MSG.resubmit)
    await expectToast(MSG.resubmit)
    expect(texts).not.toContain('Idempotency')
    expect(document.body.textContent).not.toContain('Idempotency')
  })
})

describe('showsLoadingToast', () => {
  it('is off for the balance call and for form bodies that carry a token', () => {
    expect(showsLoadingToast(getBalance, undefined)).toBe(false)
    expect(showsLoadingToast(sendSms, { phone: '1', purpose: 'register', token: 'x' })).toBe(false)
    expect(showsLoadingToast(sendSms, { phone: '1', purpose: 'register' })).toBe(true)
    expect(showsLoadingToast(userInfo, undefined)).toBe(true)
  })

  it('is on for every other endpoint of the contract, polled or not (only the balance call is exempt)', () => {
    const exempt = ENDPOINTS.filter((e) => !showsLoadingToast(e, undefined)).map((e) => e.path)
    expect(exempt).toEqual([getBalance.path])
    expect(showsLoadingToast(announcementRoute, undefined)).toBe(true)
  })
})
