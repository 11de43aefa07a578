/** The exact strings of the error catalogue (docs/product.md#error-catalogue) and the toasts of docs/product.md#pages and #constants. */
export const MSG = {
  sessionExpired: '登录已失效!',
  requestFailed: '请求失败',
  timeout: '请求超时，请稍后再试',
  network: '网络连接错误，请检查网络设置',
  copySuccess: '复制成功',
  copyFail: '复制失败',
  loading: '加载中...',
  screenshotSaved: '截图已下载',
  /** Shown instead of the server's Idempotency-Key refusal, which names a header players never see. */
  resubmit: '提交未完成，请重新提交',
  /** What the app says of a feature the server does not offer (an endpoint it does not answer). */
  unsupported: '当前服务暂不支持此功能',
} as const

/** Server-side messages of our own, shown by the client as they come. */
export const SERVER_MSG = {
  ok: '成功',
  internal: '服务器繁忙，请稍后再试',
  notFound: '接口不存在',
  payloadTooLarge: '请求内容过大',
  rateLimited: '操作过于频繁，请稍后再试',
  invalidInput: '参数错误',
  crossSite: '拒绝来自其他网站的请求',
  methodNotAllowed: '请求方法不支持',
  wrongPassword: '账号或密码错误',
  wrongOldPassword: '原密码错误',
  wrongLoginPassword: '登录密码错误',
  phoneTaken: '该手机号已注册',
  smsTooSoon: '验证码发送过于频繁，请稍后再试',
  smsInvalid: '验证码错误或已过期',
  inviteCodeUnknown: '邀请码不存在',
  playerMismatch: '用户信息不匹配',
  samePassword: '新密码不能与原密码相同',
  payPasswordProof: '请提供登录密码或短信验证码',
} as const
