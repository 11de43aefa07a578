import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { immediate } from '@server/db/database'
import { STAKES_SINCE } from '@server/emulator/content/prize-pool-repository'
import { ROOT_DIR } from '@server/paths'
import { parseAnswer } from '@server/test-support/answers'
import { createTestApp, type TestApp } from '@server/test-support/test-app'
import {
  activityDetail,
  activityImages,
  activityList,
  networkHelp,
  newbieGuide,
  ping,
  prizePool,
  serviceInfo,
  studyArticles,
  thirdPartyPages,
} from '@shared/contract/content'
import { toMicro } from '@shared/money'
import { parseDocument } from 'htmlparser2'
import { afterEach, describe, expect, it } from 'vitest'
import type { z } from 'zod'

let t: TestApp | undefined
let tmp: string | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
  if (tmp) rmSync(tmp, { recursive: true, force: true })
  tmp = undefined
})

async function get<D>(url: string, data: z.ZodType<D>): Promise<D> {
  if (!t) throw new Error('no app')
  const body = (await t.app.inject({ url })).json()
  return parseAnswer({ id: url, data }, body).data
}

/** Every element and attribute in the HTML that a browser could run. */
function live(html: string): string[] {
  const found: string[] = []
  const walk = (nodes: ReturnType<typeof parseDocument>['children']) => {
    for (const n of nodes) {
      if (!('attribs' in n)) continue
      if (['script', 'iframe', 'object', 'embed', 'svg', 'style'].includes(n.name)) found.push(n.name)
      for (const [k, v] of Object.entries(n.attribs)) {
        if (k.startsWith('on') || k === 'style' || /^\s*(javascript|vbscript|data):/i.test(v))
          found.push(`${k}=${v}`)
      }
      walk(n.children)
    }
  }
  walk(parseDocument(html).children)
  return found
}

describe('activities and content pages', () => {
  it('lists activities ongoing first, with covers served from our own origin', async () => {
    t = await createTestApp()
    const { list } = await get(activityList.path, activityList.data)
    expect(list.map((a) => a.status)).toEqual(['ongoing', 'ongoing', 'ongoing', 'ongoing', 'ended'])
    const cover = list[0]?.cover ?? ''
    expect(cover).toMatch(/^\/api\/content\/images\/[a-z-]+\.svg$/)
    const img = await t.app.inject({ url: cover })
    expect(img.statusCode).toBe(200)
    expect(img.headers['content-type']).toBe('image/svg+xml')
    expect(img.headers['content-security-policy']).toContain('sandbox')
    // An encoded way out of the folder is refused before any route (docs/security.md); a name not there is 404.
    expect((await t.app.inject({ url: '/api/content/images/..%2F..%2Fpackage.json' })).statusCode).toBe(400)
    expect((await t.app.inject({ url: '/api/content/images/no-such-cover.svg' })).statusCode).toBe(404)
    expect((await t.app.inject({ url: '/api/content/images/nope.svg' })).json().code).toBe(40400)
  })

  it('gives an activity with its rich content and images, and 404 for an unknown one', async () => {
    t = await createTestApp()
    const detail = await get(`${activityDetail.path}?id=1`, activityDetail.data)
    expect(detail.title).toBe('首充送 10%')
    expect(detail.content_html).toContain('<table>')
    expect(detail.images).toHaveLength(1)
    const images = await get(`${activityImages.path}?id=2`, activityImages.data)
    expect(images.list.map((i) => i.alt)).toEqual(['每日返水', '返水等级'])
    const current = await get(activityImages.path, activityImages.data)
    expect(current.list.some((i) => i.activity_id === 5)).toBe(false) // ended
    const missing = (await t.app.inject({ url: `${activityDetail.path}?id=999` })).json()
    expect(missing).toMatchObject({ code: 40400, msg: '活动不存在' })
  })

  it('serves fixture content carrying <script>, onerror= and javascript: links inert', async () => {
    tmp = mkdtempSync(join(tmpdir(), 'content-fixtures-'))
    cpSync(join(ROOT_DIR, 'fixtures'), tmp, { recursive: true })
    writeFileSync(
      join(tmp, 'content', 'html', 'activity-first-deposit.html'),
      [
        '<h2>首充</h2><script>document.cookie</script>',
        '<img src="x" onerror="alert(document.cookie)">',
        '<a href="javascript:alert(1)">点我</a>',
        '<a href=" JaVaScRiPt:alert(1)">再点</a>',
        '<p onclick="steal()" style="background:url(javascript:alert(1))">段落</p>',
        '<iframe src="javascript:alert(1)"></iframe><svg onload="alert(1)"></svg>',
      ].join('\n'),
    )
    const pages = {
      newbie: [
        { title: 't', summary: '', category: '', html: '<b onmouseover="x()">粗</b><script>x</script>' },
      ],
      study: [],
      network: [],
      network_speed: { good_ms: 1, fair_ms: 2 },
    }
    writeFileSync(join(tmp, 'content', 'pages.json'), JSON.stringify(pages))
    t = await createTestApp({ FIXTURES_DIR: tmp })

    const detail = await get(`${activityDetail.path}?id=1`, activityDetail.data)
    expect(live(detail.content_html)).toEqual([])
    expect(detail.content_html).toBe('<h2>首充</h2>\n<img src="x">\n<a>点我</a>\n<a>再点</a>\n<p>段落</p>\n')
    const newbie = await get(newbieGuide.path, newbieGuide.data)
    expect(newbie.list[0]?.content_html).toBe('<b>粗</b>')
  })

  it('serves the newbie guide, study articles, network help, service and ping', async () => {
    t = await createTestApp()
    expect((await get(newbieGuide.path, newbieGuide.data)).list.length).toBeGreaterThan(0)
    expect((await get(studyArticles.path, studyArticles.data)).list.length).toBeGreaterThan(0)
    const help = await get(networkHelp.path, networkHelp.data)
    expect(help).toMatchObject({ ping_path: '/api/content/ping', good_ms: 200, fair_ms: 600 })
    t.clock.freeze(1_800_000_000_000)
    expect(await get(ping.path, ping.data)).toEqual({ server_time: 1_800_000_000_000 })
    const service = await get(serviceInfo.path, serviceInfo.data)
    expect(service.app_url).toMatch(/^tg:/)
    expect(service.faq[0]).toMatchObject({ id: 1, question: '充值多久到账？' })
  })

  it('lists only third-party pages whose origin the configuration allows, and frames only those', async () => {
    t = await createTestApp()
    const allowed = await get(thirdPartyPages.path, thirdPartyPages.data)
    expect(allowed.list).toEqual([
      {
        key: 'tronscan',
        title: '区块浏览器',
        url: 'https://tronscan.org/#/blockchain/blocks',
        origin: 'https://tronscan.org',
      },
    ])
    // The frame policy belongs to the page that holds the frame.
    const res = await t.app.inject({ url: '/third?key=tronscan' })
    expect(res.headers['content-security-policy']).toMatch(/frame-src 'self' https:\/\/tronscan\.org/)
    await t.close()

    t = await createTestApp({ THIRD_PARTY_ORIGINS: 'https://other.example' })
    expect((await get(thirdPartyPages.path, thirdPartyPages.data)).list).toEqual([])
  })
})

/** Ledger postings for the seeded friend account, as the games and wallet write them. */
function friendLedger(app: TestApp) {
  const { db, ledger } = app.app.emu
  const friend = db.prepare("SELECT id FROM players WHERE phone = '13900139000'").pluck().get() as number
  const post = (type: 'topup' | 'bet', amount: string, at: number) =>
    immediate(db, () =>
      ledger.post({ playerId: friend, currency: 'USDT', type, amountMicro: toMicro(amount), at }),
    )
  return { db, friend, post }
}

describe('prize pool', () => {
  it('grows by its share of every stake and shows recent winners with masked names', async () => {
    t = await createTestApp()
    const now = new Date(2026, 2, 10, 12).getTime()
    t.clock.freeze(now)
    const before = await get(prizePool.path, prizePool.data)
    expect(before).toMatchObject({ amount: '8888.00', rate: '1.00%' })

    // Stakes are the ledger's bet rows; the bets table gives the winners.
    const { db, friend, post } = friendLedger(t)
    post('topup', '5000', now - 120_000)
    post('bet', '-1000', now - 60_000)
    post('bet', '-250', now - 1000)
    post('bet', '-50', now - 1000)
    post('bet', '-700', now + 60_000) // placed after "now"
    const insert = db.prepare(
      `INSERT INTO bets (player_id, game, round_id, bet_type, stake_micro, odds, status, payout_micro, placed_at, settled_at)
       VALUES (?, 'kuaisan', 'r', 'big', ?, '2', ?, ?, ?, ?)`,
    )
    insert.run(friend, toMicro('1000'), 'won', toMicro('2000'), now - 60_000, now - 30_000)
    insert.run(friend, toMicro('50'), 'won', toMicro('99'), now - 1000, now - 500) // under the winner minimum

    const after = await get(prizePool.path, prizePool.data)
    // 1% of 1000 + 250 + 50
    expect(after.amount).toBe('8901.00')
    expect(after.winners[0]).toEqual({
      name: '好***号',
      game: 'kuaisan',
      amount: '2000.00',
      won_at: now - 30_000,
    })
    expect(after.winners.map((w) => w.name)).not.toContain('好友一号')
    expect(after.winners.every((w) => w.name.includes('***'))).toBe(true)
  })

  it('keeps a running total: new stakes, later ones once their time comes, the clock set back, a reset', async () => {
    t = await createTestApp()
    const now = new Date(2026, 2, 10, 12).getTime()
    t.clock.freeze(now)
    const { post } = friendLedger(t)
    const pool = async () => (await get(prizePool.path, prizePool.data)).amount
    post('topup', '5000', now - 1000)
    post('bet', '-1000', now - 1000)
    post('bet', '-700', now + 60_000)
    expect(await pool()).toBe('8898.00')
    post('bet', '-100', now)
    expect(await pool()).toBe('8899.00')
    t.clock.freeze(now + 60_000)
    expect(await pool()).toBe('8906.00')
    post('bet', '-200', now + 60_000)
    expect(await pool()).toBe('8908.00')
    t.clock.freeze(now)
    expect(await pool()).toBe('8899.00')
    t.clock.freeze(now + 60_000)
    expect(await pool()).toBe('8908.00')
    await t.app.emu.reset()
    expect(await pool()).toBe('8888.00')
  })

  it('reads only the ledger rows added since the last call', async () => {
    t = await createTestApp()
    const plan = t.app.emu.db
      .prepare<[{ after: number; now: number }], { detail: string }>(`EXPLAIN QUERY PLAN ${STAKES_SINCE}`)
      .all({ after: 5, now: 0 })
      .map((p) => p.detail)
    expect(plan).toEqual(['SEARCH ledger USING INTEGER PRIMARY KEY (rowid>?)'])
  })
})
