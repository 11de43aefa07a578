import { type ApiError, callApi } from '@client/lib/http'
import { resetPassword } from '@shared/contract/account'
import { CODE } from '@shared/envelope'

/** The server does not answer an endpoint (an upstream without this endpoint of ours). */
export function isMissingEndpoint(err: unknown): boolean {
  if (!(err instanceof Error) || err.name !== 'ApiError') return false
  const { status = 0, code } = (err as ApiError).details
  return [404, 405, 501].includes(status) || code === CODE.notFound || code === CODE.methodNotAllowed
}

/**
 * Whether this server answers password recovery. In proxy mode the upstream may not have this
 * endpoint of ours; then 忘记密码 is hidden. Asked once per page load, quietly, with an empty form
 * that a server with the endpoint refuses as invalid (400), and one without answers 404 or 405.
 */
let known: boolean | null = null

export function markResetMissing(): void {
  known = false
}

export async function resetAvailable(): Promise<boolean> {
  if (known !== null) return known
  try {
    await callApi(resetPassword, { body: {} as never }, { quiet: true })
    known = true
  } catch (err) {
    known = !isMissingEndpoint(err)
  }
  return known
}
