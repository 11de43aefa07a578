import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { IDEMPOTENCY_HEADER, TOKEN_HEADER } from '@shared/constants'
import { announcement, getBalance, login, userInfo } from '@shared/contract/account'
import type { Endpoint } from '@shared/contract/endpoint'
import { gameResults } from '@shared/contract/games'
import { ENDPOINTS } from '@shared/contract/registry'
import { encodeBody, pathWithQuery } from '@shared/contract/request'
import { fundFlow, listWallets } from '@shared/contract/wallet'

/**
 * A second test backend, with habits other than the market front's (./market-front.ts), for the
 * adapter's tests: a translating front before a real server in emulator mode, written by hand
 * endpoint by endpoint (never from the adapter file, so the adapter is tested, not mirrored):
 *
 * - the envelope `{ success, errCode, errMsg, result }`: `success: true` with errCode "0";
 *   "TOKEN_INVALID" for a lost session; other refusals with our code as text ("40000"), code 0 as
 *   "SYSTEM_BUSY"; always HTTP 200;
 * - the session as `Authorization: Bearer <token>` (a `token` header is not read), the idempotency
 *   key as `X-Request-Id`;
 * - `appId=h5` on every call, in the query or the body, else "APP_ID_REQUIRED";
 * - JSON bodies, paths and names of its own (`/api/passport/login` with `account`, `uid`…);
 * - amounts as integer cents, some as text with thousand separators ("1,234.50"); times as
 *   "YYYY-MM-DD HH:mm:ss" text in Beijing time (UTC+8); flags as "Y"/"N"; upper-case enum words;
 * - pages as `records`/`totalCount`/`pageNum`/`pageSize`, asked for with `pageNum`/`pageSize`;
 *   some lists as a bare `result: [...]`; a draw's numbers as "3,5,6";
 * - the profile one level deeper (`result.profile`), without a VIP level; the address list without
 *   its limit.
 *
 * The endpoints in ROUTES are served at its paths only. Every other contract endpoint is served at
 * its own path with its own fields, only the envelope, the headers and `appId` the other way.
 * fixtures/upstream/other-habits.adapter.yaml maps it back to the contract.
 */
export interface OtherFront {
  readonly url: string
  /** Every call as it arrived: method, path and query, body, content type and the headers read. */
  readonly calls: {
    method: string
    url: string
    body: string
    contentType: string
    authorization?: string
    requestId?: string
  }[]
  close(): Promise<void>
}

type Json = unknown
type Obj = Record<string, Json>

/** One call as this backend receives it: query and JSON body, `appId` taken out. */
interface OtherCall {
  query: URLSearchParams
  body: Obj
}

interface OurCall {
  query?: Record<string, string | undefined>
  body?: Json
}

interface Route {
  method: 'GET' | 'POST'
  path: string
  ours: Endpoint
  request(call: OtherCall): OurCall
  answer(data: Obj, call: OtherCall): Json
}

export const APP_ID = 'h5'

// ── values this backend's way ───────────────────────────────────────────────────────────────────

const two = (n: number) => String(n).padStart(2, '0')
/** Milliseconds → "YYYY-MM-DD HH:mm:ss" in Beijing time (null stays null). */
const beijing = (ms: Json) => {
  if (typeof ms !== 'number') return null
  const d = new Date(ms + 8 * 3_600_000)
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
}
/** A decimal string → integer cents, exactly ("12.5" → 1250; finer amounts keep their fraction). */
const cents = (money: Json) => {
  const [whole = '0', fraction = ''] = String(money).split('.')
  const rest = fraction.slice(2)
  return Number(`${whole}${fraction.padEnd(2, '0').slice(0, 2)}${rest ? `.${rest}` : ''}`)
}
/** A decimal string with thousand separators: "1234.5" → "1,234.50". */
const grouped = (money: Json) => {
  const [whole = '0', fraction = ''] = String(money).split('.')
  const sign = whole.startsWith('-') ? '-' : ''
  const digits = whole.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${sign}${digits}.${fraction.padEnd(2, '0')}`
}
const yn = (b: Json) => (b ? 'Y' : 'N')
const str = (v: Json) => (v === undefined || v === null || v === '' ? undefined : String(v))

const FLOW_TYPE: Record<string, string> = {
  topup: 'TOPUP',
  withdrawal: 'WITHDRAW',
  withdrawal_fee: 'WITHDRAW_FEE',
  refund: 'REFUND',
  bet: 'BET',
  transfer_bet: 'TRANSFER_BET',
  payout: 'PAYOUT',
  rebate: 'REBATE',
  exchange: 'EXCHANGE',
  bonus: 'BONUS',
  deposit_bonus: 'FIRST_DEPOSIT_BONUS',
}
const FLOW_TYPE_OURS = Object.fromEntries(Object.entries(FLOW_TYPE).map(([k, v]) => [v, k]))

const pageOf = (data: Obj, item: (row: Obj) => Json) => ({
  records: (data.list as Obj[]).map(item),
  totalCount: data.total,
  pageNum: data.page,
  pageSize: data.page_size,
})

const profile = (u: Obj) => ({
  uid: u.player_id,
  nickName: u.nickname,
  mobile: u.phone,
  inviteCode: u.invite_code,
  payPwdSet: yn(u.has_pay_password),
  registerTime: beijing(u.created_at),
})

// ── the translated endpoints ────────────────────────────────────────────────────────────────────

const ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/api/passport/login',
    ours: login,
    request: ({ body }) => ({ body: { phone: str(body.account), password: str(body.password) } }),
    answer: (d) => ({
      accessToken: d.token,
      uid: d.player_id,
      expireTime: beijing(d.expires_at),
      member: profile(d.user_info as Obj),
    }),
  },
  {
    method: 'GET',
    path: '/api/api/getBalance',
    ours: getBalance,
    request: ({ query }) => ({ query: { player_id: str(query.get('uid')) } }),
    answer: (d) => ({ balance: cents(d.balance), trxBalance: grouped(d.trx_balance) }),
  },
  {
    method: 'GET',
    path: '/api/member/profile',
    ours: userInfo,
    request: ({ query }) => ({ query: { player_id: str(query.get('uid')) } }),
    answer: (d) => ({ profile: profile(d) }),
  },
  {
    method: 'GET',
    path: '/api/notice/list',
    ours: announcement,
    request: () => ({}),
    answer: (d) =>
      (d.list as Obj[]).map((a) => ({
        noticeId: a.id,
        title: a.title,
        content: a.content,
        isTop: yn(a.pinned),
        publishTime: beijing(a.published_at),
      })),
  },
  {
    method: 'GET',
    path: '/api/finance/flows',
    ours: fundFlow,
    request: ({ query }) => ({
      query: {
        page: str(query.get('pageNum')),
        page_size: str(query.get('pageSize')),
        type: FLOW_TYPE_OURS[query.get('bizType') ?? ''],
        currency: str(query.get('coin')),
        start_date: str(query.get('beginDate')),
        end_date: str(query.get('endDate')),
      },
    }),
    answer: (d) =>
      pageOf(d, (f) => ({
        flowNo: f.id,
        bizType: FLOW_TYPE[f.type as string],
        bizName: f.type_label,
        coin: f.currency,
        amount: cents(f.amount),
        balance: grouped(f.balance_after),
        refNo: f.ref,
        remark: f.memo,
        createTime: beijing(f.created_at),
      })),
  },
  {
    method: 'GET',
    path: '/api/lottery/history',
    ours: gameResults,
    request: ({ query }) => ({
      query: {
        game: str(query.get('gameCode')),
        page: str(query.get('pageNum')),
        page_size: str(query.get('pageSize')),
      },
    }),
    answer: (d) => ({
      records: (d.list as Obj[]).map((r) => ({
        gameCode: r.game,
        issueNo: r.round_id,
        blockHeight: r.height,
        blockHash: r.block_hash,
        openTime: beijing(r.draw_at),
        openCode: (r.numbers as number[]).join(','),
        labels: r.labels,
      })),
      totalCount: d.total,
    }),
  },
  {
    method: 'GET',
    path: '/api/withdraw/address',
    ours: listWallets,
    request: () => ({}),
    answer: (d) =>
      (d.list as Obj[]).map((w) => ({
        addrId: w.id,
        address: w.address,
        remark: w.label,
        chain: w.network,
        isDefault: yn(w.is_default),
        createTime: beijing(w.created_at),
      })),
  },
]

const TRANSLATED = new Set(ROUTES.map((r) => r.ours))
const OWN_SHAPE = new Map(
  ENDPOINTS.filter((e) => !TRANSLATED.has(e)).map((e) => [`${e.method} ${e.path}`, e]),
)

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** Our code this backend's way. */
const errCode = (code: number) =>
  code === 1 || code === 200
    ? '0'
    : code === 10001 || code === 401
      ? 'TOKEN_INVALID'
      : code === 0
        ? 'SYSTEM_BUSY'
        : String(code)

/** The session token out of `Authorization: Bearer …`. */
const bearer = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]

/** A body of our encoding without `appId`, and whether it had one. */
async function withoutAppId(
  raw: string,
  contentType: string,
): Promise<{ body: string | null; appId?: string }> {
  if (raw === '') return { body: null }
  if (contentType.includes('application/json')) {
    const json = JSON.parse(raw) as Obj
    const appId = str(json.appId)
    delete json.appId
    return { body: JSON.stringify(json), ...(appId ? { appId } : {}) }
  }
  if (contentType.includes('multipart/form-data')) {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData()
    const appId = str(form.get('appId'))
    form.delete('appId')
    const params = new URLSearchParams()
    for (const [k, v] of form) if (typeof v === 'string') params.set(k, v)
    return { body: params.toString(), ...(appId ? { appId } : {}) }
  }
  const params = new URLSearchParams(raw)
  const appId = str(params.get('appId'))
  params.delete('appId')
  return { body: params.toString(), ...(appId ? { appId } : {}) }
}

export async function startOtherFront(opts: { emulator: string }): Promise<OtherFront> {
  const emulator = opts.emulator.replace(/\/$/, '')
  const calls: OtherFront['calls'] = []

  /** Our session and idempotency headers, from this backend's. */
  function ourHeaders(req: IncomingMessage): Headers {
    const headers = new Headers({ accept: 'application/json' })
    const token = bearer(req)
    if (token) headers.set(TOKEN_HEADER, token)
    const key = req.headers['x-request-id']
    if (typeof key === 'string') headers.set(IDEMPOTENCY_HEADER, key)
    return headers
  }

  async function callOurs(req: IncomingMessage, endpoint: Endpoint, ours: OurCall) {
    const headers = ourHeaders(req)
    const query = Object.fromEntries(Object.entries(ours.query ?? {}).filter(([, v]) => v !== undefined))
    const body = encodeBody(endpoint, ours.body ?? (endpoint.method === 'GET' ? undefined : {}))
    if (typeof body === 'string') headers.set('content-type', 'application/json')
    const res = await fetch(`${emulator}${pathWithQuery(endpoint, query)}`, {
      method: endpoint.method,
      headers,
      body: body ?? null,
    })
    return (await res.json()) as { code: number; msg: string; data: Json }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await read(req)
    const contentType = req.headers['content-type'] ?? ''
    calls.push({
      method: req.method ?? '',
      url: req.url ?? '',
      body: raw,
      contentType,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      ...(typeof req.headers['x-request-id'] === 'string' ? { requestId: req.headers['x-request-id'] } : {}),
    })
    const url = new URL(req.url ?? '/', 'http://other')
    const method = req.method ?? 'GET'
    const send = (code: number | string, message: string, data: Json) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      const err = typeof code === 'string' ? code : errCode(code)
      res.end(JSON.stringify({ success: err === '0', errCode: err, errMsg: message, result: data }))
    }
    const route = ROUTES.find((r) => r.method === method && r.path === url.pathname)
    if (route) {
      let body: Obj = {}
      if (raw !== '') {
        if (!contentType.includes('application/json'))
          return send('BAD_CONTENT_TYPE', '请使用 JSON 提交', null)
        body = JSON.parse(raw) as Obj
      }
      const appId = method === 'GET' ? url.searchParams.get('appId') : body.appId
      if (appId !== APP_ID) return send('APP_ID_REQUIRED', '缺少 appId', null)
      url.searchParams.delete('appId')
      delete body.appId
      const call = { query: url.searchParams, body }
      const answer = await callOurs(req, route.ours, route.request(call))
      const ok = answer.code === 1 && answer.data !== null && typeof answer.data === 'object'
      return send(answer.code, answer.msg, ok ? route.answer(answer.data as Obj, call) : answer.data)
    }
    const own = OWN_SHAPE.get(`${method} ${url.pathname}`)
    if (own) {
      // This backend has the endpoint with our fields: only the envelope, headers and appId differ.
      const stripped = await withoutAppId(raw, contentType)
      const appId = url.searchParams.get('appId') ?? stripped.appId
      if (appId !== APP_ID) return send('APP_ID_REQUIRED', '缺少 appId', null)
      url.searchParams.delete('appId')
      const headers = ourHeaders(req)
      if (stripped.body !== null) {
        headers.set(
          'content-type',
          contentType.includes('application/json') ? 'application/json' : 'application/x-www-form-urlencoded',
        )
      }
      const query = url.searchParams.toString()
      const upstream = await fetch(`${emulator}${url.pathname}${query ? `?${query}` : ''}`, {
        method,
        headers,
        body: method === 'GET' ? null : stripped.body,
      })
      const answer = (await upstream.json()) as { code: number; msg: string; data: Json }
      return send(answer.code, answer.msg, answer.data)
    }
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('Not Found')
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy()
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ success: false, errCode: 'SYSTEM_ERROR', errMsg: String(err), result: null }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
