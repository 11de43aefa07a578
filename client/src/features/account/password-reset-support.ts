import { isEndpointMissing } from '@client/lib/endpoint-status'
import { callApi } from '@client/lib/http'
import { resetPassword } from '@shared/contract/account'

/**
 * Whether this server answers password recovery. In proxy mode the upstream may not have this
 * endpoint of ours; then 忘记密码 is hidden. Asked once per page load, quietly, with an empty form
 * that a server with the endpoint refuses as invalid (400), and one without answers 404 or 405
 * (lib/endpoint-status.ts).
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
    known = !isEndpointMissing(err)
  }
  return known
}
