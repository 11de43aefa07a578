import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http'

/**
 * A small upstream with the field habits common in this market, for the adapter's tests: code 200
 * for success and 401 for a lost session, `message` instead of `msg`, camelCase names, amounts as
 * numbers, times in seconds, pages as `data.list`/`data.total`, pinyin type words, its own paths
 * (`/api/user/login` with a JSON body, `/api/wallet/flows`). One player, `13800138000`/`demo1234`.
 * fixtures/upstream/market-habits.adapter.yaml is the adapter that maps it to the contract.
 */
export interface MarketUpstream {
  readonly url: string
  /** Every call as it arrived: method, path and query, body, headers. */
  readonly calls: {
    method: string
    url: string
    body: string
    contentType: string
    headers: IncomingHttpHeaders
  }[]
  close(): Promise<void>
}

const TOKEN = 'mk-7f3c2a'
const NOW_S = 1_795_800_000

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
  })
}

export async function startMarketUpstream(): Promise<MarketUpstream> {
  const calls: MarketUpstream['calls'] = []
  const server: Server = createServer(async (req, res) => {
    const body = await read(req)
    calls.push({
      method: req.method ?? '',
      url: req.url ?? '',
      body,
      contentType: req.headers['content-type'] ?? '',
      headers: req.headers,
    })
    const url = new URL(req.url ?? '/', 'http://upstream')
    const answer = (code: number, message: string, data: unknown) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ code, message, data }))
    }
    const authed = req.headers.token === TOKEN
    if (req.method === 'POST' && url.pathname === '/api/user/login') {
      const { mobile, pwd } = JSON.parse(body || '{}') as { mobile?: string; pwd?: string }
      if (mobile !== '13800138000' || pwd !== 'demo1234') return answer(4001, '账号或密码错误', null)
      return answer(200, '登录成功', {
        token: TOKEN,
        playerId: 9,
        expiresAt: NOW_S + 86_400,
        userInfo: {
          playerId: 9,
          nickname: '玩家九',
          phone: '138***8000',
          inviteCode: 'MK9',
          hasPayPassword: 1,
          vipLevel: 2,
          createdAt: NOW_S - 86_400,
        },
      })
    }
    if (!authed) return answer(401, '请先登录', null)
    if (req.method === 'GET' && url.pathname === '/api/api/getBalance') {
      if (url.searchParams.get('uid') !== '9') return answer(4002, '用户不匹配', null)
      return answer(200, 'ok', { usdt: 65.85, trx: 12 })
    }
    if (req.method === 'GET' && url.pathname === '/api/wallet/flows') {
      const size = Number(url.searchParams.get('pageSize') ?? 20)
      const rows = [
        {
          flowId: 3,
          type: 'paijiang',
          currency: 'USDT',
          amount: 19.6,
          balanceAfter: 65.85,
          createdAt: NOW_S - 60,
          memo: '派奖',
          type_label: '派奖',
          ref: 'B3',
        },
        {
          flowId: 2,
          type: 'touzhu',
          currency: 'USDT',
          amount: -10,
          balanceAfter: 46.25,
          createdAt: NOW_S - 120,
          memo: '',
          type_label: '投注',
          ref: 'B3',
        },
        {
          flowId: 1,
          type: 'chongzhi',
          currency: 'USDT',
          amount: 56.25,
          balanceAfter: 56.25,
          createdAt: NOW_S - 3600,
          memo: '',
          type_label: '充值',
          ref: null,
        },
      ]
      return answer(200, 'ok', { total: rows.length, list: rows.slice(0, size) })
    }
    res.statusCode = 404
    answer(404, 'not found', null)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
