import { z } from 'zod'
import { defineEndpoint } from './endpoint'
import {
  idParam,
  moneyString,
  newPasswordField,
  passwordField,
  payPasswordField,
  phoneField,
  smsCodeField,
  timestamp,
} from './fields'
import { type Announcement, announcementRoute, getBalanceRoute, userInfoRoute } from './first-screen'

export const smsPurposeSchema = z.enum(['register', 'pay_password'])

export const userInfoSchema = z.object({
  player_id: z.number().int(),
  nickname: z.string(),
  /** The phone with its middle masked, e.g. 138***5678. */
  phone: z.string(),
  invite_code: z.string(),
  has_pay_password: z.boolean(),
  vip_level: z.number().int(),
  created_at: timestamp,
})
export type UserInfo = z.infer<typeof userInfoSchema>

export const sendSms = defineEndpoint({
  id: 'sendSms',
  method: 'POST',
  path: '/api/sms/send',
  summary: 'Send an SMS verification code',
  tag: 'account',
  source: 'spec',
  fields: 'ours',
  auth: false,
  encoding: 'urlencoded',
  /**
   * `register` and `reset_password` need the phone; `pay_password` goes to the logged-in player's own
   * phone (token header). A reset code is sent only to a registered phone, but the answer is the same
   * either way, so the call tells no one which phones have accounts.
   */
  body: z.discriminatedUnion('purpose', [
    z.strictObject({ purpose: z.literal('register'), phone: phoneField }),
    z.strictObject({ purpose: z.literal('reset_password'), phone: phoneField }),
    z.strictObject({ purpose: z.literal('pay_password'), phone: phoneField.optional() }),
  ]),
  data: z.object({
    /** Seconds before another code may be sent to this phone. */
    resend_in: z.number().int(),
    /** Seconds the code stays valid. */
    expires_in: z.number().int(),
  }),
})

export const register = defineEndpoint({
  id: 'register',
  method: 'POST',
  path: '/api/users/register',
  summary: 'Register with a phone, an SMS code and a password',
  tag: 'account',
  source: 'spec',
  fields: 'ours',
  auth: false,
  encoding: 'urlencoded',
  body: z.strictObject({
    phone: phoneField,
    code: smsCodeField,
    password: newPasswordField,
    invite_code: z
      .string()
      .regex(/^[A-Z0-9]{6,10}$/, { error: '邀请码格式不正确' })
      .optional(),
  }),
  data: z.object({ player_id: z.number().int() }),
})

export const login = defineEndpoint({
  id: 'login',
  method: 'POST',
  path: '/api/login',
  summary: 'Log in; returns the session token and player_id',
  tag: 'account',
  source: 'spec',
  fields: 'ours',
  auth: false,
  encoding: 'multipart',
  body: z.strictObject({ phone: phoneField, password: passwordField }),
  data: z.object({
    token: z.string(),
    player_id: z.number().int(),
    /** When the token stops working, unless used again before then. */
    expires_at: timestamp,
    user_info: userInfoSchema,
  }),
})

export const logout = defineEndpoint({
  id: 'logout',
  method: 'POST',
  path: '/api/users/logout',
  summary: 'End the session: the token stops working at once',
  tag: 'account',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({}).nullish(),
  data: z.null(),
})

export const userInfo = defineEndpoint({
  id: 'userInfo',
  ...userInfoRoute,
  summary: "The logged-in player's info",
  tag: 'account',
  source: 'spec',
  fields: 'ours',
  query: z.strictObject({ player_id: idParam }),
  data: userInfoSchema,
})

export const getBalance = defineEndpoint({
  id: 'getBalance',
  ...getBalanceRoute,
  summary: "The player's balance, data.balance as a string such as 0.00",
  tag: 'account',
  source: 'spec',
  fields: 'spec',
  query: z.strictObject({ player_id: idParam }),
  data: z.object({
    balance: moneyString,
    /** The TRX balance of the exchange wallet. */
    trx_balance: moneyString,
  }),
})

export const changePassword = defineEndpoint({
  id: 'changePassword',
  method: 'POST',
  path: '/api/users/change-password',
  summary: 'Change the login password; needs the old one. Other sessions end.',
  tag: 'security',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  body: z.strictObject({ old_password: passwordField, new_password: newPasswordField }),
  data: z.null(),
})

export const resetPassword = defineEndpoint({
  id: 'resetPassword',
  method: 'POST',
  path: '/api/users/reset-password',
  summary:
    'Set a new login password with an SMS code sent to the account’s phone; every session of the player ends',
  tag: 'account',
  source: 'ours',
  fields: 'ours',
  auth: false,
  encoding: 'urlencoded',
  body: z.strictObject({ phone: phoneField, code: smsCodeField, new_password: newPasswordField }),
  data: z.null(),
})

export const updatePaymentPassword = defineEndpoint({
  id: 'updatePaymentPassword',
  method: 'POST',
  path: '/api/api2/update-payment-password',
  summary: 'Set or change the 6-digit payment password; needs the login password or an SMS code',
  tag: 'security',
  source: 'spec',
  fields: 'ours',
  auth: true,
  encoding: 'urlencoded',
  /** Exactly one proof: the login password or an SMS code. */
  body: z.union(
    [
      z.strictObject({ pay_password: payPasswordField, login_password: passwordField }),
      z.strictObject({ pay_password: payPasswordField, sms_code: smsCodeField }),
    ],
    { error: '请提供登录密码 login_password 或短信验证码 sms_code（二选一）' },
  ),
  data: z.null(),
})

export const announcementSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  pinned: z.boolean(),
  published_at: timestamp,
}) satisfies z.ZodType<Announcement>

export const announcement = defineEndpoint({
  id: 'announcement',
  ...announcementRoute,
  summary: 'Announcements, pinned first, newest first',
  tag: 'content',
  source: 'spec',
  fields: 'ours',
  data: z.object({ list: z.array(announcementSchema) }),
})
