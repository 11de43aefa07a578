import { ANY_SESSION } from '@shared/emu-control'
import { CODE } from '@shared/envelope'
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../http/api-error'

/** What a session token can look like on the wire: visible characters, no spaces, no ellipsis. */
const TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{8,512}$/

/**
 * Refuses a session fault for a token that cannot be a session: in emulator mode one the emulator
 * never issued (a copied placeholder such as `3f2a…`), in proxy mode one that is not shaped like
 * a token. `any` is always fine.
 */
export function assertSessionToken(app: FastifyInstance, token: string, emulated: boolean): void {
  if (token === ANY_SESSION) return
  const shown = token.length > 12 ? `${token.slice(0, 12)}…` : token
  if (!TOKEN_SHAPE.test(token)) {
    throw new ApiError(
      CODE.invalidInput,
      `不是会话 token: ${shown}（填登录返回的 token，或用 any 表示下一个带 token 的请求）`,
      400,
    )
  }
  if (!emulated) return
  if (!app.emu.accounts.sessions.wasIssued(token)) {
    throw new ApiError(
      CODE.notFound,
      `模拟器没有签发过这个 token: ${shown}（填登录返回的 token，或用 any 表示下一个带 token 的请求）`,
      404,
    )
  }
}
