import { WHEN_MISSING } from '@client/lib/when-missing'
import type { Page } from '@playwright/test'
import { userInfo } from '@shared/contract/account'
import {
  agentChildSearch,
  agentInfo,
  agentQrcode,
  agentRebateConfig,
  agentTurnover,
} from '@shared/contract/agent'
import {
  activityDetail,
  activityImages,
  activityList,
  networkHelp,
  newbieGuide,
  ping,
  prizePool,
  rebateHistory,
  rebateSummary,
  serviceInfo,
  studyArticles,
  thirdPartyPages,
} from '@shared/contract/content'
import type { Endpoint } from '@shared/contract/endpoint'
import { announcementRoute } from '@shared/contract/first-screen'
import {
  betAddresses,
  betHistory,
  bindBetAddress,
  currentRound,
  gameCommitment,
  gameResults,
  gameRules,
  transferHistory,
  verifyRound,
} from '@shared/contract/games'
import { netPosition, protectionLimits, realityCheck } from '@shared/contract/protection'
import { ENDPOINTS } from '@shared/contract/registry'
import {
  changeType,
  fundFlow,
  getDepositHistory,
  getDepositOrder,
  getPayInfoUsdt,
  getWithdrawalHistory,
  getWithdrawConfig,
  listWallets,
} from '@shared/contract/wallet'
import type { FaultRuleInput } from '@shared/emu-control'
import { MSG } from '@shared/messages'
import { addFault, clearFaults } from './support/emu'
import { expect, openLoggedIn, recordToasts, test, toastsSeen } from './support/test'

/**
 * Every endpoint of ours a page reads, made to answer as a server without it would, and the page
 * checked for what client/src/lib/when-missing.ts says it does: the section hidden or the page
 * explaining, no toast, no error boundary, and the rest of the page still there.
 *
 * Each endpoint gets one of three answers in turn: HTTP 404 with an HTML page, HTTP 405 with the
 * fault layer's envelope, or an unknown code in a 200. The three are one case for the app
 * (lib/endpoint-status.ts classifies all as `missing`; client/src/lib/http.test.ts, "an endpoint
 * the server does not offer", shows each taking the same path), so trying all three on every
 * endpoint would only repeat the same code path.
 *
 * One test per group of pages, in one browser context: each case loads its page into it.
 */

const ANSWERS: readonly { name: string; action: FaultRuleInput['action'] }[] = [
  { name: 'HTTP 404', action: { type: 'status', status: 404, body: '<html><body>Not Found</body></html>' } },
  { name: 'HTTP 405', action: { type: 'status', status: 405 } },
  { name: 'an unknown code', action: { type: 'envelope', code: 99999, msg: 'no such api' } },
]

interface Case {
  /** The endpoint that goes missing. */
  endpoint: Pick<Endpoint, 'id' | 'method' | 'path'>
  /** Where to look. */
  url: string
  /** What the page does without it. */
  degraded: (page: Page) => Promise<void>
  /** Something else on the page that still works. */
  rest: (page: Page) => Promise<void>
  /** Before the checks: a tap that brings the section into view. */
  open?: (page: Page) => Promise<void>
}

interface Group {
  name: string
  loggedIn: boolean
  cases: Case[]
}

const missingNote = (page: Page, text = `${MSG.unsupported}。`) =>
  expect(page.getByTestId('endpoint-missing').first()).toHaveText(text)
const title = (page: Page, text: string) => expect(page.locator('h1.page-shell__title')).toHaveText(text)
const visible = (page: Page, text: string) =>
  expect(page.getByText(text, { exact: true }).first()).toBeVisible()
const absent = (page: Page, testId: string) => expect(page.getByTestId(testId)).toHaveCount(0)

const GAME = '/games/kuaisan'

const GROUPS: readonly Group[] = [
  {
    name: 'home and content pages',
    loggedIn: false,
    cases: [
      {
        endpoint: { id: 'announcement', ...announcementRoute },
        url: '/home',
        degraded: async (page) => {
          await expect(page.locator('.home-page__notice-placeholder')).toBeVisible()
          await expect(page.locator('.notice-line')).toHaveCount(0)
        },
        rest: (page) => expect(page.getByRole('heading', { name: '热门游戏' })).toBeVisible(),
      },
      {
        endpoint: activityList,
        url: '/activity',
        degraded: (page) => missingNote(page, '当前服务暂不支持活动，敬请期待。'),
        rest: (page) => expect(page.getByRole('link', { name: '活动海报' })).toBeVisible(),
      },
      {
        endpoint: activityImages,
        url: '/activity-images',
        degraded: (page) => missingNote(page),
        rest: (page) => visible(page, '点击图片查看大图，长按即可保存后分享。'),
      },
      {
        endpoint: activityDetail,
        url: '/activity/detail?id=1',
        degraded: (page) => missingNote(page, '当前服务暂不支持查看活动详情。'),
        rest: (page) => expect(page.getByRole('button', { name: '查看全部活动' })).toBeVisible(),
      },
      {
        endpoint: prizePool,
        url: '/pond',
        degraded: (page) => missingNote(page, '当前服务暂不支持奖池。'),
        rest: (page) => title(page, '奖池'),
      },
      {
        endpoint: newbieGuide,
        url: '/newbie',
        degraded: (page) => missingNote(page, '当前服务暂不提供新手指引，可先查看下方的更多帮助。'),
        rest: (page) => visible(page, '联系客服'),
      },
      {
        endpoint: studyArticles,
        url: '/study',
        degraded: (page) => missingNote(page),
        rest: (page) => expect(page.getByTestId('study-verify')).toBeVisible(),
      },
      {
        endpoint: networkHelp,
        url: '/vpn',
        degraded: (page) => expect(page.getByText('连接指引', { exact: true })).toHaveCount(0),
        // The speed test runs without the guide's thresholds.
        rest: (page) => expect(page.getByTestId('round-trip')).toHaveText(/^\d+ ms$/),
      },
      {
        endpoint: ping,
        url: '/vpn',
        degraded: (page) => missingNote(page, '当前服务暂不支持测速。'),
        rest: (page) => visible(page, '连接指引'),
      },
      {
        endpoint: serviceInfo,
        url: '/service',
        degraded: async (page) => {
          await missingNote(page, '当前服务暂未开通在线客服，请通过下方帮助自助解决。')
          await expect(page.getByText('常见问题', { exact: true })).toHaveCount(0)
        },
        rest: (page) => visible(page, '新手指引'),
      },
      {
        endpoint: thirdPartyPages,
        url: '/third',
        degraded: (page) => missingNote(page, '当前服务暂无合作页面。'),
        rest: (page) => expect(page.getByRole('button', { name: '返回首页' })).toBeVisible(),
      },
    ],
  },
  {
    name: 'game pages',
    loggedIn: true,
    cases: [
      {
        endpoint: gameRules,
        url: GAME,
        degraded: async (page) => {
          await missingNote(page, '当前服务暂不支持此游戏的玩法与赔率，暂时无法投注。')
          await absent(page, 'bet-bar')
        },
        rest: (page) => expect(page.getByTestId('round')).toBeVisible(),
      },
      {
        endpoint: gameResults,
        url: GAME,
        degraded: async (page) => {
          await expect(page.getByTestId('round')).toBeVisible()
          await absent(page, 'latest-results')
          await absent(page, 'results-strip')
          await absent(page, 'streaks')
        },
        rest: (page) => expect(page.getByTestId('bet-bar')).toBeVisible(),
      },
      {
        endpoint: currentRound,
        url: GAME,
        degraded: (page) => missingNote(page, '当前服务暂不支持此游戏的期号与开奖，暂时无法投注。'),
        rest: (page) => expect(page.getByTestId('latest-results')).toBeVisible(),
      },
      {
        endpoint: gameCommitment,
        url: GAME,
        degraded: async (page) => {
          await expect(page.getByTestId('round')).toBeVisible()
          await absent(page, 'commitment')
        },
        rest: (page) => expect(page.getByTestId('bet-bar')).toBeVisible(),
      },
      {
        endpoint: gameRules,
        url: `${GAME}/rules`,
        degraded: (page) => missingNote(page, '当前服务暂不提供此游戏的规则与赔率。'),
        rest: (page) => title(page, '快三 · 规则'),
      },
      {
        endpoint: gameResults,
        url: `${GAME}/history`,
        degraded: (page) => missingNote(page),
        rest: (page) => title(page, '快三 · 开奖记录'),
      },
      {
        endpoint: gameResults,
        url: '/games/zoushi',
        degraded: (page) => missingNote(page, '当前服务暂不提供开奖走势。'),
        rest: (page) => visible(page, '我的走势'),
      },
      {
        endpoint: betHistory,
        url: '/games/zoushi',
        open: (page) => page.getByRole('tab', { name: '我的走势' }).click(),
        degraded: (page) => missingNote(page, '当前服务暂不提供我的走势。'),
        rest: (page) => visible(page, '开奖走势'),
      },
      {
        endpoint: verifyRound,
        url: '/verify?game=kuaisan&round=202501010001',
        degraded: (page) => missingNote(page, '当前服务暂不支持核验开奖。'),
        rest: (page) => title(page, '验证 · 快三 第 202501010001 期'),
      },
      {
        endpoint: betHistory,
        url: '/bethistory',
        degraded: (page) => missingNote(page),
        rest: (page) => title(page, '投注记录'),
      },
      {
        endpoint: betAddresses,
        url: '/bet-address',
        degraded: (page) => missingNote(page, '当前服务暂不支持转账投注。'),
        rest: (page) => title(page, '投注地址'),
      },
      {
        endpoint: betAddresses,
        url: '/test-bet',
        degraded: (page) => missingNote(page, '当前服务暂不支持转账投注。'),
        rest: (page) => title(page, '试玩投注'),
      },
      {
        endpoint: transferHistory,
        url: '/test-bet',
        degraded: async (page) => {
          await expect(page.getByRole('button', { name: '发送转账投注' })).toBeVisible()
          await absent(page, 'transfer-history')
        },
        rest: (page) => visible(page, '转出地址（已绑定）'),
      },
    ],
  },
  {
    name: 'wallet pages',
    loggedIn: true,
    cases: [
      {
        endpoint: getPayInfoUsdt,
        url: '/hometopup',
        degraded: (page) => missingNote(page, '当前服务暂不支持在此充值，请联系客服。'),
        rest: (page) => title(page, '充值'),
      },
      {
        endpoint: getDepositOrder,
        url: '/hometopup?order=1',
        degraded: (page) =>
          missingNote(page, '订单已提交。当前服务暂不支持查看到账进度，到账后余额会自动增加。'),
        rest: async (page) => {
          await expect(page.getByTestId('deposit-address')).toBeVisible()
          await expect(page.getByRole('button', { name: '继续充值' })).toBeVisible()
        },
      },
      {
        endpoint: getWithdrawConfig,
        url: '/cash',
        degraded: (page) => missingNote(page, '当前服务暂不支持在此提现，请联系客服。'),
        rest: (page) => title(page, '提现'),
      },
      {
        endpoint: listWallets,
        url: '/cash',
        degraded: (page) => missingNote(page, '当前服务暂不支持在此提现，请联系客服。'),
        rest: (page) => title(page, '提现'),
      },
      {
        endpoint: listWallets,
        url: '/address',
        degraded: (page) => missingNote(page, '当前服务暂不支持管理提现地址。'),
        rest: (page) => title(page, '钱包地址'),
      },
      {
        endpoint: changeType,
        url: '/exchange',
        degraded: (page) => missingNote(page, '当前服务暂不支持兑换。'),
        rest: (page) => title(page, '兑换'),
      },
      {
        endpoint: getDepositHistory,
        url: '/tophistory',
        degraded: (page) => missingNote(page),
        rest: (page) => visible(page, '提现记录'),
      },
      {
        endpoint: getWithdrawalHistory,
        url: '/tophistory?tab=withdraw',
        degraded: (page) => missingNote(page),
        rest: (page) => visible(page, '充值记录'),
      },
      {
        endpoint: fundFlow,
        url: '/finance',
        degraded: (page) => missingNote(page),
        rest: (page) => title(page, '资金明细'),
      },
    ],
  },
  {
    name: 'agent pages',
    loggedIn: true,
    cases: [
      {
        endpoint: agentInfo,
        url: '/invite-friends',
        degraded: (page) => missingNote(page, '当前服务暂不支持邀请好友与团队返佣。'),
        rest: (page) => title(page, '邀请好友'),
      },
      {
        endpoint: agentQrcode,
        url: '/invite-friends',
        degraded: async (page) => {
          await expect(page.getByTestId('invite-code')).not.toHaveText('—')
          await expect(page.getByTestId('invite-poster').locator('img, .agent__qr')).toHaveCount(0)
        },
        rest: (page) => expect(page.getByRole('button', { name: '保存海报' })).toBeEnabled(),
      },
      {
        endpoint: rebateSummary,
        url: '/backwater',
        degraded: async (page) => {
          await missingNote(page, '当前服务暂不支持领取返水。')
          await expect(page.getByRole('button', { name: '一键领取' })).toHaveCount(0)
        },
        rest: (page) => visible(page, '返水比例（按当日流水）'),
      },
      {
        endpoint: agentRebateConfig,
        url: '/backwater',
        degraded: (page) => expect(page.getByText('返水比例（按当日流水）')).toHaveCount(0),
        rest: (page) => expect(page.getByTestId('today-turnover')).not.toHaveText('—'),
      },
      {
        endpoint: rebateHistory,
        url: '/backwater',
        degraded: (page) => missingNote(page),
        rest: (page) => expect(page.getByTestId('today-turnover')).not.toHaveText('—'),
      },
      {
        endpoint: agentTurnover,
        url: '/performance-record',
        degraded: (page) => missingNote(page, '当前服务暂不支持团队业绩。'),
        rest: (page) => visible(page, '下级查询'),
      },
      {
        endpoint: agentChildSearch,
        url: '/performance-record',
        open: (page) => page.getByText('下级查询', { exact: true }).click(),
        degraded: (page) => missingNote(page),
        rest: (page) => visible(page, '流水记录'),
      },
    ],
  },
  {
    name: 'player protection and 我的',
    loggedIn: true,
    cases: [
      {
        endpoint: protectionLimits,
        url: '/protection',
        degraded: async (page) => {
          await missingNote(page)
          await absent(page, 'limits-deposit')
        },
        // The limits answer for the whole feature: a server without them has none of it.
        rest: (page) => title(page, '游戏限制与自我保护'),
      },
      {
        endpoint: realityCheck,
        url: '/protection',
        degraded: (page) => missingNote(page),
        rest: (page) => expect(page.getByTestId('limits-deposit')).toBeVisible(),
      },
      {
        endpoint: netPosition,
        url: '/net-position',
        degraded: (page) => missingNote(page),
        rest: (page) => title(page, '输赢统计'),
      },
      {
        endpoint: protectionLimits,
        url: '/responsible',
        degraded: (page) => absent(page, 'protection-links'),
        rest: (page) => expect(page.getByTestId('house-edge')).toContainText('快三'),
      },
      {
        endpoint: gameRules,
        url: '/responsible',
        degraded: (page) => absent(page, 'house-edge'),
        rest: (page) => expect(page.getByTestId('protection-links')).toBeVisible(),
      },
      {
        endpoint: userInfo,
        url: '/mine',
        // Start-up keeps the stored session: still logged in, the balance read.
        degraded: (page) => expect(page.getByText('退出登录', { exact: true })).toBeVisible(),
        rest: (page) => expect(page.getByTestId('balance')).toHaveText(/\d/),
      },
    ],
  },
]

/** Reads of ours no page shows by itself: read quietly in the background (covered by unit tests). */
const NOT_ON_A_PAGE = new Set<string>([])

test('every endpoint of ours a page reads is in the table', () => {
  const tested = new Set(GROUPS.flatMap((g) => g.cases.map((c) => c.endpoint.id)))
  const reads = ENDPOINTS.filter((e) => e.method === 'GET' && WHEN_MISSING[e.id] !== undefined).map(
    (e) => e.id,
  )
  expect(reads.filter((id) => !tested.has(id) && !NOT_ON_A_PAGE.has(id))).toEqual([])
})

let turn = 0
for (const group of GROUPS) {
  const cases = group.cases.map((c) => ({ ...c, answer: ANSWERS[turn++ % ANSWERS.length] ?? ANSWERS[0] }))
  test(`${group.name}: without the endpoint the section hides or the page explains`, async ({
    page,
    scope,
    pageErrors,
  }) => {
    await recordToasts(page)
    let first = true
    for (const c of cases) {
      const label = `${c.endpoint.method} ${c.endpoint.path} (${c.answer?.name}) on ${c.url}`
      await test.step(label, async () => {
        await clearFaults(scope)
        await addFault(scope, {
          match: { path: c.endpoint.path, method: c.endpoint.method },
          action: c.answer?.action ?? { type: 'status', status: 404 },
        })
        // The checks start once the page has had the answer: a section hidden only until then is not enough.
        const answered = page.waitForResponse(
          (res) =>
            new URL(res.url()).pathname === c.endpoint.path && res.request().method() === c.endpoint.method,
        )
        if (first && group.loggedIn) await openLoggedIn(page, c.url)
        else await page.goto(c.url)
        first = false
        await c.open?.(page)
        await answered
        await c.rest(page)
        await c.degraded(page)
        await expect(page.locator('.error-boundary')).toHaveCount(0)
        // A read the server does not offer shows no toast: neither the server's words nor an HTTP status.
        const toasts = await toastsSeen(page)
        expect(
          toasts.filter((t) => /请求失败|HTTP|no such api|当前服务/.test(t)),
          label,
        ).toEqual([])
      })
    }
    expect(pageErrors).toEqual([])
  })
}

test('a write the server does not offer says so, and the form stays', async ({ page, scope, pageErrors }) => {
  await recordToasts(page)
  await addFault(scope, {
    match: { path: bindBetAddress.path, method: 'POST' },
    action: ANSWERS[0]?.action ?? { type: 'status', status: 404 },
  })
  await openLoggedIn(page, '/bet-address')
  await page.getByRole('button', { name: '绑定新地址' }).click()
  await page.getByPlaceholder('TRON 地址（T 开头）').fill('TJYeasTPa6gpEEfYkXAG5Ft9j9tvGhYzLT')
  await page.getByRole('button', { name: '保存' }).click()
  await expect.poll(() => toastsSeen(page)).toContain(MSG.unsupported)
  expect((await toastsSeen(page)).filter((t) => /请求失败|HTTP/.test(t))).toEqual([])
  await expect(page.getByPlaceholder('TRON 地址（T 开头）')).toHaveValue('TJYeasTPa6gpEEfYkXAG5Ft9j9tvGhYzLT')
  await expect(page.getByTestId('bet-addresses')).toBeVisible()
  expect(pageErrors).toEqual([])
})
