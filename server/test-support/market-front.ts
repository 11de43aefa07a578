import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { IDEMPOTENCY_HEADER, TOKEN_HEADER } from '@shared/constants'
import { getBalance, login, userInfo } from '@shared/contract/account'
import { agentInfo, agentQrcode } from '@shared/contract/agent'
import type { Endpoint } from '@shared/contract/endpoint'
import { betHistory, currentRound, gameResults, placeBets } from '@shared/contract/games'
import { ENDPOINTS } from '@shared/contract/registry'
import { encodeBody, pathWithQuery } from '@shared/contract/request'
import {
  bindWallet,
  fundFlow,
  getDepositHistory,
  getDepositOrder,
  getPayInfoUsdt,
  getWithdrawalHistory,
  getWithdrawConfig,
  listWallets,
  usdtPay,
  withdraw,
} from '@shared/contract/wallet'

/**
 * A backend with the field habits common in this market, for the browser tests and the adapter's
 * tests: a translating front before a real server in emulator mode. It rewrites each call the
 * market's way into ours and each answer of ours back the market's way, endpoint by endpoint, by
 * hand (never by reading the adapter file, so the adapter is tested, not mirrored):
 *
 * - the envelope `{ code, message, data }`: code 200 for success, 401 for a lost session (always
 *   HTTP 200), 500 for a refusal of the service; other codes as they are;
 * - its own paths (`/api/user/login`, `/api/recharge/...`, `/api/withdraw/...`, `/api/game/...`,
 *   `/api/recharge/order/{orderId}`), JSON bodies where we use forms;
 * - camelCase names and words of its own (`mobile`, `pwd`, `uid`, `issue`, `payPwd`, `remark`…);
 * - amounts as numbers, times as Unix seconds (the game module keeps milliseconds for its round
 *   clock), 0/1 for yes/no, numbered statuses, pinyin fund-flow types;
 * - pages as `data.list`/`data.total`, asked for with `pageNum`/`pageSize` (the fund flow with
 *   `page`/`pageSize`).
 *
 * Only the endpoints the player's journeys use are translated (ROUTES below); they are not served at
 * the contract's paths. Every other contract endpoint is served at its own path with its own fields,
 * only the envelope the market's way. fixtures/upstream/market-habits.adapter.yaml maps it back.
 */
export interface MarketFront {
  readonly url: string
  /** Every call as it arrived: method, path and query, body, content type. */
  readonly calls: { method: string; url: string; body: string; contentType: string }[]
  close(): Promise<void>
}

type Json = unknown
type Obj = Record<string, Json>

/** One call as the market receives it. */
interface MarketCall {
  query: URLSearchParams
  body: Obj
  params: Record<string, string>
}

/** Our call to the emulator: the query and body of our endpoint. */
interface OurCall {
  query?: Record<string, string | undefined>
  body?: Json
}

interface Route {
  method: 'GET' | 'POST'
  /** The market's path; `{name}` is a path parameter. */
  path: string
  ours: Endpoint
  request(call: MarketCall): OurCall
  answer(data: Obj, call: MarketCall): Json
}

// ── values the market's way ─────────────────────────────────────────────────────────────────────

/** Milliseconds → Unix seconds (null stays null). */
const sec = (ms: Json) => (typeof ms === 'number' ? Math.floor(ms / 1000) : null)
/** A decimal string → a number. */
const num = (money: Json) => Number(money)
const flag = (b: Json) => (b ? 1 : 0)
/** A text field of the market's call, or undefined. */
const str = (v: Json) => (v === undefined || v === null || v === '' ? undefined : String(v))

const DEPOSIT_STATUS: Record<string, number> = { pending: 0, confirmed: 1 }
const WITHDRAWAL_STATUS: Record<string, number> = { pending: 0, approved: 1, rejected: 2 }
const BET_STATUS: Record<string, number> = { pending: 0, won: 1, lost: 2, draw: 3 }
const ROUND_STATE: Record<string, number> = { OPEN: 1, SEALED: 2 }
const FLOW_TYPE: Record<string, string> = {
  topup: 'chongzhi',
  withdrawal: 'tixian',
  withdrawal_fee: 'tixian_shouxufei',
  refund: 'tuikuan',
  bet: 'touzhu',
  transfer_bet: 'zhuanzhang_touzhu',
  payout: 'paijiang',
  rebate: 'fanshui',
  exchange: 'duihuan',
  bonus: 'zengsong',
  deposit_bonus: 'shouchong_zengsong',
}
const invert = (map: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(map).map(([k, v]) => [String(v), k]))
const DEPOSIT_STATUS_OURS = invert(DEPOSIT_STATUS)
const WITHDRAWAL_STATUS_OURS = invert(WITHDRAWAL_STATUS)
const BET_STATUS_OURS = invert(BET_STATUS)
const FLOW_TYPE_OURS = invert(FLOW_TYPE)

const pageQuery = (q: URLSearchParams) => ({
  page: str(q.get('pageNum')),
  page_size: str(q.get('pageSize')),
})
const page = (data: Obj, item: (row: Obj) => Json) => ({
  total: data.total,
  list: (data.list as Obj[]).map(item),
})

const member = (u: Obj) => ({
  playerId: u.player_id,
  nickname: u.nickname,
  phone: u.phone,
  inviteCode: u.invite_code,
  hasPayPassword: flag(u.has_pay_password),
  vipLevel: u.vip_level,
  createdAt: sec(u.created_at),
})

const depositOrder = (o: Obj) => ({
  orderId: o.id,
  orderNo: o.order_no,
  coin: o.currency,
  chain: o.network,
  toAddress: o.address,
  amount: num(o.amount),
  status: DEPOSIT_STATUS[o.status as string],
  statusText: o.status_label,
  confirmNum: o.confirmations,
  needConfirmNum: o.confirmations_required,
  txHash: o.tx_hash,
  createTime: sec(o.created_at),
  expectTime: sec(o.expected_at),
  confirmTime: sec(o.confirmed_at),
})

const walletList = (d: Obj) => ({
  maxCount: d.max_count,
  list: (d.list as Obj[]).map((w) => ({
    addressId: w.id,
    address: w.address,
    remark: w.label,
    chain: w.network,
    isDefault: flag(w.is_default),
    createTime: sec(w.created_at),
  })),
})

const withdrawal = (w: Obj) => ({
  orderId: w.id,
  orderNo: w.order_no,
  coin: w.currency,
  chain: w.network,
  address: w.address,
  remark: w.label,
  amount: num(w.amount),
  fee: num(w.fee),
  total: num(w.total),
  status: WITHDRAWAL_STATUS[w.status as string],
  statusText: w.status_label,
  reason: w.reason,
  txHash: w.tx_hash,
  createTime: sec(w.created_at),
  reviewTime: sec(w.reviewed_at),
})

/** A drawn round; the game module keeps times in milliseconds. */
const draw = (r: Obj | null) =>
  r && {
    gameCode: r.game,
    issue: r.round_id,
    height: r.height,
    blockHash: r.block_hash,
    drawTime: r.draw_at,
    openCode: r.numbers,
    labels: r.labels,
  }

const roundOf = (r: Obj) => ({
  gameCode: r.game,
  issue: r.round_id,
  height: r.height,
  sealTime: r.seal_at,
  drawTime: r.draw_at,
})

const bet = (b: Obj) => ({
  betId: b.id,
  gameCode: b.game,
  gameName: b.game_name,
  issue: b.round_id,
  height: b.height,
  playCode: b.bet_type,
  playName: b.label,
  betAmount: num(b.stake),
  odds: Number(b.odds),
  status: BET_STATUS[b.status as string],
  winAmount: num(b.payout),
  channel: b.source === 'app' ? 1 : 2,
  betTime: sec(b.placed_at),
  drawTime: sec(b.draw_at),
  settleTime: sec(b.settled_at),
})

// ── the translated endpoints ────────────────────────────────────────────────────────────────────

const ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/api/user/login',
    ours: login,
    request: ({ body }) => ({ body: { phone: str(body.mobile), password: str(body.pwd) } }),
    answer: (d) => ({
      token: d.token,
      playerId: d.player_id,
      expiresAt: sec(d.expires_at),
      userInfo: member(d.user_info as Obj),
    }),
  },
  {
    method: 'GET',
    path: '/api/api/getBalance',
    ours: getBalance,
    request: ({ query }) => ({ query: { player_id: str(query.get('uid')) } }),
    answer: (d) => ({ usdt: num(d.balance), trx: num(d.trx_balance) }),
  },
  {
    method: 'GET',
    path: '/api/user/info',
    ours: userInfo,
    request: ({ query }) => ({ query: { player_id: str(query.get('uid')) } }),
    answer: member,
  },
  {
    method: 'GET',
    path: '/api/recharge/usdt/info',
    ours: getPayInfoUsdt,
    request: () => ({}),
    answer: (d) => ({
      coin: d.currency,
      chain: d.network,
      address: d.address,
      qrCode: d.qr_text,
      minAmount: num(d.min_amount),
      maxAmount: num(d.max_amount),
      confirmNum: d.confirmations,
      chainDelay: d.chain_delay_seconds,
      tips: d.notice,
    }),
  },
  {
    method: 'POST',
    path: '/api/recharge/usdt/create',
    ours: usdtPay,
    request: ({ body }) => ({ body: { amount: str(body.amount) } }),
    answer: depositOrder,
  },
  {
    method: 'GET',
    path: '/api/recharge/order/{orderId}',
    ours: getDepositOrder,
    request: ({ params }) => ({ query: { id: params.orderId } }),
    answer: depositOrder,
  },
  {
    method: 'GET',
    path: '/api/recharge/records',
    ours: getDepositHistory,
    request: ({ query }) => ({
      query: {
        ...pageQuery(query),
        start_date: str(query.get('startDate')),
        end_date: str(query.get('endDate')),
        status: DEPOSIT_STATUS_OURS[query.get('status') ?? ''],
      },
    }),
    answer: (d) => page(d, depositOrder),
  },
  {
    method: 'GET',
    path: '/api/withdraw/address/list',
    ours: listWallets,
    request: () => ({}),
    answer: walletList,
  },
  {
    method: 'POST',
    path: '/api/withdraw/address/add',
    ours: bindWallet,
    request: ({ body }) => ({
      body: {
        address: str(body.address),
        label: str(body.remark),
        pay_password: str(body.payPwd),
        is_default: body.isDefault === undefined ? undefined : String(body.isDefault),
      },
    }),
    answer: walletList,
  },
  {
    method: 'GET',
    path: '/api/withdraw/config',
    ours: getWithdrawConfig,
    request: () => ({}),
    answer: (d) => ({
      coin: d.currency,
      chain: d.network,
      minAmount: num(d.min_amount),
      maxAmount: num(d.max_amount),
      fee: num(d.fee),
      dailyLimit: num(d.daily_limit),
      usedToday: num(d.used_today),
      remainToday: num(d.remaining_today),
      balance: num(d.balance),
      maxWithdraw: num(d.max_withdrawable),
      hasPayPassword: flag(d.has_pay_password),
      lockUntil: sec(d.locked_until),
      pwdAttemptsLeft: d.pay_password_attempts_left,
    }),
  },
  {
    method: 'POST',
    path: '/api/withdraw/apply',
    ours: withdraw,
    request: ({ body }) => ({
      body: { wallet_id: str(body.addressId), amount: str(body.amount), pay_password: str(body.payPwd) },
    }),
    answer: (d) => ({ order: withdrawal(d.order as Obj), balance: num(d.balance) }),
  },
  {
    method: 'GET',
    path: '/api/withdraw/records',
    ours: getWithdrawalHistory,
    request: ({ query }) => ({
      query: {
        ...pageQuery(query),
        start_date: str(query.get('startDate')),
        end_date: str(query.get('endDate')),
        status: WITHDRAWAL_STATUS_OURS[query.get('status') ?? ''],
      },
    }),
    answer: (d) => page(d, withdrawal),
  },
  {
    method: 'GET',
    path: '/api/wallet/flows',
    ours: fundFlow,
    request: ({ query }) => ({
      query: {
        page: str(query.get('page')),
        page_size: str(query.get('pageSize')),
        start_date: str(query.get('startDate')),
        end_date: str(query.get('endDate')),
        type: FLOW_TYPE_OURS[query.get('type') ?? ''],
        currency: str(query.get('currency')),
      },
    }),
    answer: (d) =>
      page(d, (f) => ({
        flowId: f.id,
        type: FLOW_TYPE[f.type as string],
        type_label: f.type_label,
        currency: f.currency,
        amount: num(f.amount),
        balanceAfter: num(f.balance_after),
        ref: f.ref,
        memo: f.memo,
        createdAt: sec(f.created_at),
      })),
  },
  {
    method: 'GET',
    path: '/api/game/issue/current',
    ours: currentRound,
    request: ({ query }) => ({ query: { game: str(query.get('gameCode')) } }),
    answer: (d) => ({
      ...roundOf(d),
      serverTime: d.server_time,
      sealRemain: d.ms_to_seal,
      drawRemain: d.ms_to_draw,
      status: ROUND_STATE[d.state as string],
      next: roundOf(d.next as Obj),
      last: draw(d.previous as Obj | null),
    }),
  },
  {
    method: 'GET',
    path: '/api/game/draw/history',
    ours: gameResults,
    request: ({ query }) => ({ query: { game: str(query.get('gameCode')), ...pageQuery(query) } }),
    answer: (d) => page(d, (r) => draw(r)),
  },
  {
    method: 'POST',
    path: '/api/game/bet',
    ours: placeBets,
    request: ({ body }) => ({
      body: {
        game: body.gameCode,
        round_id: body.issue,
        bets: Array.isArray(body.items)
          ? (body.items as Obj[]).map((i) => ({ bet_type: i.playCode, amount: str(i.amount) }))
          : body.items,
      },
    }),
    answer: (d) => ({ issue: d.round_id, orders: (d.bets as Obj[]).map(bet), balance: num(d.balance) }),
  },
  {
    method: 'GET',
    path: '/api/game/bet/records',
    ours: betHistory,
    request: ({ query }) => ({
      query: {
        game: str(query.get('gameCode')),
        status: BET_STATUS_OURS[query.get('status') ?? ''],
        date_from: str(query.get('startDate')),
        date_to: str(query.get('endDate')),
        ...pageQuery(query),
      },
    }),
    answer: (d) => {
      const sum = d.summary as Obj
      return {
        ...page(d, (b) => ({ ...bet(b), drawResult: draw(b.result as Obj | null) })),
        sum: { betAmount: num(sum.stake), winAmount: num(sum.payout) },
      }
    },
  },
  {
    method: 'GET',
    path: '/api/agent/info',
    ours: agentInfo,
    request: () => ({}),
    answer: (d) => ({
      uid: d.player_id,
      inviteCode: d.invite_code,
      inviteUrl: d.invite_link,
      directNum: d.direct_count,
      teamNum: d.team_count,
      todayTeamFlow: num(d.today_team_turnover),
      totalTeamFlow: num(d.total_team_turnover),
      commissionTotal: num(d.commission_total),
      commissionToday: num(d.commission_today),
      commissionAvailable: num(d.commission_claimable),
      levels: (d.levels as Obj[]).map((l) => ({
        level: l.level,
        num: l.count,
        rateBp: l.rate_bp,
        rate: l.rate,
      })),
    }),
  },
  {
    method: 'GET',
    path: '/api/agent/qrcode',
    ours: agentQrcode,
    request: ({ query }) => ({ query: { size: str(query.get('size')) } }),
    answer: (d) => ({ inviteCode: d.invite_code, inviteUrl: d.invite_link, qrImg: d.image, size: d.size }),
  },
]

/** The contract endpoints the market serves under other names: not at the contract's path. */
const TRANSLATED = new Set(ROUTES.map((r) => r.ours))
const OWN_SHAPE = new Map(
  ENDPOINTS.filter((e) => !TRANSLATED.has(e)).map((e) => [`${e.method} ${e.path}`, e]),
)

function match(route: Route, method: string, path: string): Record<string, string> | null {
  if (route.method !== method) return null
  const names: string[] = []
  const pattern = new RegExp(
    `^${route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name)
      return '([^/]+)'
    })}$`,
  )
  const m = pattern.exec(path)
  if (!m) return null
  return Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1] ?? '')]))
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** Our envelope's code the market's way. */
const marketCode = (code: number) => (code === 1 ? 200 : code === 10001 ? 401 : code === 0 ? 500 : code)

export async function startMarketFront(opts: { emulator: string }): Promise<MarketFront> {
  const emulator = opts.emulator.replace(/\/$/, '')
  const calls: MarketFront['calls'] = []

  /** Calls our endpoint on the emulator with the market call's session and key; our envelope back. */
  async function callOurs(
    req: IncomingMessage,
    endpoint: Endpoint,
    ours: OurCall,
  ): Promise<{ code: number; msg: string; data: Json }> {
    const headers = new Headers({ accept: 'application/json' })
    for (const name of [TOKEN_HEADER, IDEMPOTENCY_HEADER]) {
      const value = req.headers[name]
      if (typeof value === 'string') headers.set(name, value)
    }
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
    calls.push({ method: req.method ?? '', url: req.url ?? '', body: raw, contentType })
    const url = new URL(req.url ?? '/', 'http://market')
    const method = req.method ?? 'GET'
    const send = (code: number, message: string, data: Json, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ code: marketCode(code), message, data }))
    }
    for (const route of ROUTES) {
      const params = match(route, method, url.pathname)
      if (!params) continue
      let body: Obj = {}
      if (raw !== '') {
        if (!contentType.includes('application/json')) return send(4000, '请使用 JSON 提交', null)
        body = JSON.parse(raw) as Obj
      }
      const call = { query: url.searchParams, body, params }
      const answer = await callOurs(req, route.ours, route.request(call))
      const ok = answer.code === 1 && answer.data !== null && typeof answer.data === 'object'
      return send(answer.code, answer.msg, ok ? route.answer(answer.data as Obj, call) : answer.data)
    }
    const own = OWN_SHAPE.get(`${method} ${url.pathname}`)
    if (own) {
      // The market has this endpoint with our fields: only the envelope is its own.
      const headers: Record<string, string> = {}
      for (const name of [TOKEN_HEADER, IDEMPOTENCY_HEADER, 'content-type', 'accept']) {
        const value = req.headers[name]
        if (typeof value === 'string') headers[name] = value
      }
      const upstream = await fetch(`${emulator}${req.url}`, {
        method,
        headers,
        body: method === 'GET' || raw === '' ? null : raw,
      })
      const answer = (await upstream.json()) as { code: number; msg: string; data: Json }
      return send(answer.code, answer.msg, answer.data)
    }
    send(404, 'not found', null, 404)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return res.destroy()
      res.writeHead(500, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ code: 500, message: String(err), data: null }))
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
