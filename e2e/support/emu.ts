import { SCOPE_HEADER } from '@shared/constants'
import { login as loginEndpoint, register, sendSms } from '@shared/contract/account'
import type { DataOf } from '@shared/contract/endpoint'
import type { FaultRuleInput, JournalFilter } from '@shared/emu-control'
import { EmuClient } from '../../scripts/emu/emu-client'
import { api, baseUrl } from './api'

/**
 * The tester's API (/__emu) through the typed client, and the account calls tests set up with
 * through `api` (./api.ts): each call sent and its answer parsed by its contract.
 */

export const DEMO = { phone: '13800138000', password: 'demo1234', payPassword: '123456' } as const

export { baseUrl }

/** The typed tester's client (scripts/emu/emu-client.ts) on the server under test; in `scope` when given. */
export function emu(scope?: string): EmuClient {
  const client = new EmuClient({ url: baseUrl() })
  return scope === undefined ? client : client.withScope(scope)
}

/** A fault rule seen only by requests that carry this scope's header; answers its id. */
export async function addFault(scope: string, rule: FaultRuleInput): Promise<string> {
  return (await emu(scope).addFault(rule)).id
}

/** How many of this scope's calls the journal holds that match the filter. */
export const countCalls = (scope: string, filter: JournalFilter): Promise<number> =>
  emu(scope).countRequests(filter)

export async function clearFaults(scope: string): Promise<void> {
  await emu(scope).clearFaults()
}

/** Removes one fault rule by the id addFault returned. */
export const removeFault = (id: string): Promise<void> => emu().deleteFault(id)

/** The latest SMS code the emulator sent to a phone. */
export async function smsCode(phone: string): Promise<string> {
  const code = (await emu().sms(phone))[0]?.code
  if (!code) throw new Error(`no SMS code for ${phone}`)
  return code
}

export type LoginResult = DataOf<typeof loginEndpoint>

export const login = (phone: string = DEMO.phone, password: string = DEMO.password): Promise<LoginResult> =>
  api(loginEndpoint, { body: { phone, password } })

/** A fresh player, registered through the API; with an invite code, in that player's team. */
export async function registerPlayer(
  password = 'amber-otter-42',
  inviteCode?: string,
): Promise<{ phone: string; password: string }> {
  const phone = uniquePhone()
  await api(sendSms, { body: { phone, purpose: 'register' } })
  const code = await smsCode(phone)
  await api(register, { body: { phone, code, password, ...(inviteCode ? { invite_code: inviteCode } : {}) } })
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

/**
 * Tops a player up by `amount` USDT at once, first-deposit bonus included, through the
 * deposit-arrives scenario (in `scope` when given).
 */
export async function topUp(
  player: { phone: string; password: string },
  amount: string,
  scope?: string,
): Promise<void> {
  await emu(scope).activate('deposit-arrives', { ...player, amount })
}
