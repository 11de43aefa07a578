import { SCOPE_HEADER } from '@shared/constants'
import type { FaultRuleInput, JournalFilter } from '@shared/emu-control'

/** The tester's API (/__emu) and the account endpoints, called directly with fetch. */

export const DEMO = { phone: '13800138000', password: 'demo1234', payPassword: '123456' } as const

export function baseUrl(): string {
  const base = process.env.E2E_BASE_URL
  if (!base) throw new Error('E2E_BASE_URL is not set: the global setup did not run')
  return base
}

interface Envelope<T> {
  code: number
  msg?: string
  data: T
}

async function json<T>(res: Response): Promise<Envelope<T>> {
  const body = (await res.json()) as Envelope<T>
  if (!res.ok || (body.code !== 1 && body.code !== 200)) {
    throw new Error(`${res.url} answered ${res.status}: ${JSON.stringify(body)}`)
  }
  return body
}

/** A tester's control call, e.g. `emuPost('/deposits/D1/confirm')`; throws on a refusal. */
export async function emuPost<T = unknown>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/__emu${path}`, {
    method: 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  return (await json<T>(res)).data
}

/** A fault rule seen only by requests that carry this scope's header. */
export async function addFault(scope: string, rule: FaultRuleInput): Promise<string> {
  const res = await fetch(`${baseUrl()}/__emu/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...rule, scope }),
  })
  return (await json<{ id: string }>(res)).data.id
}

/** How many of this scope's calls the journal holds that match the filter. */
export async function countCalls(scope: string, filter: JournalFilter): Promise<number> {
  const res = await fetch(`${baseUrl()}/__emu/requests/count`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...filter, scope }),
  })
  return (await json<{ count: number }>(res)).data.count
}

export async function clearFaults(scope: string): Promise<void> {
  await json(
    await fetch(`${baseUrl()}/__emu/faults?scope=${encodeURIComponent(scope)}`, { method: 'DELETE' }),
  )
}

/** The latest SMS code the emulator sent to a phone. */
export async function smsCode(phone: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/__emu/sms?phone=${encodeURIComponent(phone)}`)
  const { data } = await json<{ code: string }[]>(res)
  const code = data[0]?.code
  if (!code) throw new Error(`no SMS code for ${phone}`)
  return code
}

export interface LoginResult {
  token: string
  player_id: number
  expires_at: number
  user_info: Record<string, unknown>
}

export async function login(
  phone: string = DEMO.phone,
  password: string = DEMO.password,
): Promise<LoginResult> {
  const form = new FormData()
  form.set('phone', phone)
  form.set('password', password)
  const res = await fetch(`${baseUrl()}/api/login`, { method: 'POST', body: form })
  return (await json<LoginResult>(res)).data
}

/** A fresh player, registered through the API; with an invite code, in that player's team. */
export async function registerPlayer(
  password = 'amber-otter-42',
  inviteCode?: string,
): Promise<{ phone: string; password: string }> {
  const phone = uniquePhone()
  const form = (fields: Record<string, string>) => new URLSearchParams(fields)
  await json(
    await fetch(`${baseUrl()}/api/sms/send`, { method: 'POST', body: form({ phone, purpose: 'register' }) }),
  )
  const code = await smsCode(phone)
  const fields: Record<string, string> = { phone, code, password }
  if (inviteCode) fields.invite_code = inviteCode
  await json(await fetch(`${baseUrl()}/api/users/register`, { method: 'POST', body: form(fields) }))
  return { phone, password }
}

let counter = 0
/** A phone number no other test uses: the process id and a counter keep workers apart. */
export function uniquePhone(): string {
  counter += 1
  const tail = `${process.pid % 10_000}`.padStart(4, '0') + `${counter % 10_000}`.padStart(4, '0')
  return `166${tail}`
}

export const scopeHeader = (scope: string) => ({ [SCOPE_HEADER]: scope })

/** Removes one fault rule by the id addFault returned. */
export async function removeFault(id: string): Promise<void> {
  await json(await fetch(`${baseUrl()}/__emu/faults/${encodeURIComponent(id)}`, { method: 'DELETE' }))
}

/**
 * Tops a player up by `amount` USDT at once, first-deposit bonus included, through the
 * deposit-arrives scenario (in `scope` when given).
 */
export async function topUp(
  player: { phone: string; password: string },
  amount: string,
  scope?: string,
): Promise<void> {
  await json(
    await fetch(`${baseUrl()}/__emu/scenarios/deposit-arrives/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...(scope ? { scope } : {}), params: { ...player, amount } }),
    }),
  )
}
