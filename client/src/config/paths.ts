/** Every path of the app (docs/product.md#pages), in one place. */
export const paths = {
  root: '/',
  home: '/home',
  activity: '/activity',
  service: '/service',
  mine: '/mine',
  topUp: '/hometopup',
  withdraw: '/cash',
  newbie: '/newbie',
  betHistory: '/bethistory',
  securityCenter: '/securitycenter',
  passwordChange: '/pdchange',
  payPasswordChange: '/paypdchange',
  walletAddresses: '/address',
  betAddresses: '/bet-address',
  exchange: '/exchange',
  topUpHistory: '/tophistory',
  rebate: '/backwater',
  finance: '/finance',
  vpn: '/vpn',
  prizePool: '/pond',
  login: '/login',
  forgotPassword: '/forgot-password',
  gameBlock: '/games/qukuai',
  gameTrend: '/games/zoushi',
  gameHashSize: '/games/hassize',
  gameFastThree: '/games/kuaisan',
  gameTimeColour: '/games/shishicai',
  gameRacing: '/games/saiche',
  study: '/study',
  inviteFriends: '/invite-friends',
  performanceRecord: '/performance-record',
  third: '/third',
  testBet: '/test-bet',
  activityImages: '/activity-images',
  activityDetail: '/activity/detail',
  announcements: '/announcements',
  gameResultsHistory: '/games/:game/history',
  gameRulesPage: '/games/:game/rules',
  verify: '/verify',
  responsible: '/responsible',
  protection: '/protection',
  netPosition: '/net-position',
  excludedWithdraw: '/protection/withdraw',
} as const

/** `isreg`: 1 opens the register form; 0 is used after session loss. */
export const LOGIN_QUERY = 'isreg'

export const loginPath = (isreg?: 0 | 1): string =>
  isreg === undefined ? paths.login : `${paths.login}?${LOGIN_QUERY}=${isreg}`

/**
 * The query parameter of an invite link that carries the inviter's code: the link, its QR code and
 * the poster (all built by the server from `fixtures/agent.json`) and the register form use this name.
 */
export const INVITE_QUERY = 'invite_code'

/** Where a lost session lands (docs/product.md#error-catalogue). */
export const SESSION_LOST_PATH = loginPath(0)
