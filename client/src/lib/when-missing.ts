/**
 * What the app does when the server does not offer an endpoint whose fields are ours — HTTP 404,
 * 405 or 501, code 40500, a code the app does not know in a 2xx answer to a read, or an answer of
 * another shape (lib/endpoint-status.ts) — endpoint by endpoint. docs/upstream.md prints it under each endpoint
 * (scripts/upstream-doc.ts); scripts/upstream-doc.test.ts holds it to every such endpoint the client
 * calls, and e2e/missing-endpoints.spec.ts checks the pages' part in the browser. The app itself
 * does not import this file.
 *
 * A write the server does not offer always ends the same way: the toast 当前服务暂不支持此功能, the
 * form stays as it was (WRITE below). A read shows no toast: the page hides or explains.
 */

const WRITE = 'the toast 当前服务暂不支持此功能; the form stays as it was, nothing else changes'

export const WHEN_MISSING: Readonly<Record<string, string>> = {
  // account
  announcement: '首页: the announcements line stays empty; the rest of the page works',
  sendSms: `${WRITE}; on 忘记密码 it puts 暂不支持在线找回密码，请联系在线客服。 in place of the form`,
  userInfo:
    'start-up keeps the session the login stored and asks no more (the balance is still read); 支付密码: after a change the stored flag is not refreshed',
  logout: `${WRITE}; the app logs out on this device all the same`,
  login: `${WRITE}: nobody can log in`,
  register: WRITE,
  changePassword: WRITE,
  resetPassword:
    'probed quietly on 登录: the 忘记密码 link is hidden; on 忘记密码 a code or submission that meets it puts 暂不支持在线找回密码，请联系在线客服。 in place of the form',
  updatePaymentPassword: WRITE,
  // wallet
  getPayInfoUsdt: '充值 says 当前服务暂不支持在此充值，请联系客服。 in place of the address and the form',
  usdtPay: WRITE,
  getDepositOrder:
    '充值, after an order: 订单已提交。当前服务暂不支持查看到账进度，到账后余额会自动增加。 with 继续充值; it is not polled',
  getDepositHistory: '充值提现记录 (充值): the list says 当前服务暂不支持此功能。 (the filters stay)',
  listWallets:
    '钱包地址 says 当前服务暂不支持管理提现地址。; 提现 says 当前服务暂不支持在此提现，请联系客服。; the exclusion dialog of 游戏限制与自我保护 (read quietly) does not ask for an address to be bound',
  bindWallet: WRITE,
  setDefaultWallet: WRITE,
  deleteWallet: WRITE,
  getWithdrawConfig: '提现 says 当前服务暂不支持在此提现，请联系客服。 in place of the form',
  withdraw: WRITE,
  getWithdrawalHistory:
    '充值提现记录 (提现): the list says 当前服务暂不支持此功能。; 提现, after a withdrawal: the submitted order is shown as it was, not polled',
  changeType: '兑换 says 当前服务暂不支持兑换。',
  exchange: WRITE,
  fundFlow: '资金明细: the list says 当前服务暂不支持此功能。 (the filters stay)',
  // games
  currentRound:
    'the game pages say 当前服务暂不支持此游戏的期号与开奖，暂时无法投注。 in place of the round and its countdown, and stop polling; nothing can be bet',
  gameResults:
    'the game pages leave out the results strip, the streak board and 最近开奖; 开奖记录 says 当前服务暂不支持此功能。; 走势 says 当前服务暂不提供开奖走势。 (and stops polling)',
  placeBets: WRITE,
  betHistory:
    '投注记录 says 当前服务暂不支持此功能。; 走势 (我的走势) says 当前服务暂不提供我的走势。; read quietly by the settlement watch and 验证 (the player’s bets of the round are left out)',
  gameRules:
    'the game pages say 当前服务暂不支持此游戏的玩法与赔率，暂时无法投注。 in place of the bet board, without the bet bar; 规则 says 当前服务暂不提供此游戏的规则与赔率。; 负责任博彩 leaves out the house edges',
  gameCommitment: 'the game pages leave out the commitment panel',
  verifyRound: '验证 says 当前服务暂不支持核验开奖。',
  betAddresses: '投注地址 and 试玩投注 say 当前服务暂不支持转账投注。',
  bindBetAddress: WRITE,
  updateBetAddress: WRITE,
  deleteBetAddress: WRITE,
  sendTransferBet: WRITE,
  transferHistory: '试玩投注 leaves out 最近的转账投注 and does not poll it',
  // agent
  agentInfo: '邀请好友 says 当前服务暂不支持邀请好友与团队返佣。 in place of the poster and the team',
  agentQrcode: '邀请好友: the poster goes without its QR code (保存海报 still works)',
  agentTurnover:
    '业绩记录 (业绩): says 当前服务暂不支持团队业绩。 in place of the range, the totals and the lists',
  agentChildSearch: '业绩记录 (团队): the list says 当前服务暂不支持此功能。 (the search stays)',
  agentRebateConfig: '返水 leaves out the tiers and commission rates',
  rebateSummary: '返水 says 当前服务暂不支持领取返水。 in place of the summary and the claim button',
  rebateClaim: WRITE,
  rebateHistory: '返水: 领取记录 says 当前服务暂不支持此功能。',
  // content
  activityList: '活动 says 当前服务暂不支持活动，敬请期待。',
  activityDetail: '活动详情 says 当前服务暂不支持查看活动详情。 with 查看全部活动',
  activityImages: '活动海报 says 当前服务暂不支持此功能。',
  prizePool: '奖池 says 当前服务暂不支持奖池。 and stops polling',
  newbieGuide: '新手指引 says 当前服务暂不提供新手指引，可先查看下方的更多帮助。; the help links stay',
  studyArticles: '教程 says 当前服务暂不支持此功能。 in place of the articles; the rest stays',
  networkHelp: '网络帮助 leaves out the connection guide; the speed test still runs, without a rating',
  ping: '网络帮助 says 当前服务暂不支持测速。 in place of the test button; the offline banner counts any answer as the server being back',
  serviceInfo:
    '客服 says 当前服务暂未开通在线客服，请通过下方帮助自助解决。 in place of the chat button and leaves out 常见问题; the help links stay',
  thirdPartyPages: '第三方页面 says 当前服务暂无合作页面。 with 返回首页',
  // player protection
  protectionLimits:
    '游戏限制与自我保护 says 当前服务暂不支持此功能。 in place of all its controls (the limits answer for the whole feature); 负责任博彩 leaves out the links to the controls',
  setProtectionLimit: WRITE,
  realityCheck:
    '游戏限制与自我保护: the reality-check section says 当前服务暂不支持此功能。; no reminder is shown on any page',
  setRealityCheck: WRITE,
  acknowledgeRealityCheck: WRITE,
  startExclusion: WRITE,
  excludedWithdraw: WRITE,
  excludedAccount: WRITE,
  excludedSms: WRITE,
  excludedSetup: WRITE,
  netPosition: '净输赢 says 当前服务暂不支持此功能。 in place of the figures and the chart',
}
