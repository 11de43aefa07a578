import {
  announcement,
  changePassword,
  getBalance,
  login,
  logout,
  register,
  resetPassword,
  sendSms,
  updatePaymentPassword,
  userInfo,
} from './account'
import { AGENT_ENDPOINTS } from './agent'
import { CONTENT_BYTES_ENDPOINTS, CONTENT_ENDPOINTS } from './content'
import type { BytesEndpoint, Endpoint } from './endpoint'
import { GAME_ENDPOINTS } from './games'
import { PROTECTION_ENDPOINTS } from './protection'
import { WALLET_ENDPOINTS } from './wallet'

/** Every endpoint, for OpenAPI and for the checks that run over all of them. */
export const ENDPOINTS: readonly Endpoint[] = [
  announcement,
  getBalance,
  sendSms,
  userInfo,
  logout,
  login,
  register,
  changePassword,
  resetPassword,
  updatePaymentPassword,
  ...WALLET_ENDPOINTS,
  ...GAME_ENDPOINTS,
  ...AGENT_ENDPOINTS,
  ...CONTENT_ENDPOINTS,
  ...PROTECTION_ENDPOINTS,
]

/** The /api endpoints that answer bytes, not the envelope (see BytesEndpoint), for OpenAPI and the route check. */
export const BYTES_ENDPOINTS: readonly BytesEndpoint[] = [...CONTENT_BYTES_ENDPOINTS]
