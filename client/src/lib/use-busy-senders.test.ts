import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import * as account from '@shared/contract/account'
import * as agent from '@shared/contract/agent'
import * as content from '@shared/contract/content'
import type { Endpoint } from '@shared/contract/endpoint'
import * as games from '@shared/contract/games'
import * as protection from '@shared/contract/protection'
import { ENDPOINTS } from '@shared/contract/registry'
import * as wallet from '@shared/contract/wallet'
import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..')

/** The names under which the contract exports the endpoints that send something (POST). */
const SENDING = new Set(
  [account, agent, content, games, protection, wallet].flatMap((mod) =>
    Object.entries(mod)
      .filter(([, value]) => ENDPOINTS.includes(value as Endpoint) && (value as Endpoint).method === 'POST')
      .map(([name]) => name),
  ),
)

/**
 * Sends that are not a form's or a button's own, each with why it needs no useBusy of its own. Any
 * other send must be inside a `run(…)` of useBusy.
 */
const NOT_A_FORM: Record<string, string> = {
  // Sent from PayPasswordSheet's onSubmit, which runs under the sheet's own useBusy.
  'features/wallet/addresses-page.tsx bindWallet': 'the payment-password sheet',
  'features/wallet/withdraw-page.tsx withdraw': 'the payment-password sheet',
  // Sent from the onSend of SmsCodeButton (or SmsCodeItem), which runs under the button's useBusy.
  'features/account/forgot-password-page.tsx sendSms': 'the SMS code button',
  'features/account/register-form.tsx sendSms': 'the SMS code button',
  'features/protection/excluded-withdraw-page.tsx excludedSms': 'the SMS code button',
  'features/security/pay-password-page.tsx sendSms': 'the SMS code button',
  // A probe of whether the reset endpoint exists, sent once when the page opens.
  'features/account/password-reset-support.ts resetPassword': 'a probe',
  // The session's own actions: the login form runs logIn under its useBusy; logOut leaves the page.
  'lib/session-actions.ts login': 'called by the login form inside run',
  'lib/session-actions.ts logout': 'leaves the page at once',
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/** The calls a position sits inside, innermost first: the name before each unclosed `(` above it. */
function enclosingCalls(text: string, at: number): string[] {
  const names: string[] = []
  let depth = 0
  for (let i = at - 1; i >= 0; i--) {
    const ch = text[i]
    if (ch === ')') depth++
    else if (ch === '(') {
      if (depth > 0) depth--
      else names.push(/(\w+)\s*$/.exec(text.slice(Math.max(0, i - 40), i))?.[1] ?? '')
    }
  }
  return names
}

/** Each send of a module: the endpoint, and whether it runs inside `run(…)` of useBusy. */
function sends(text: string): { endpoint: string; guarded: boolean }[] {
  return [...text.matchAll(/callApi\(\s*(\w+)/g)].flatMap((m) => {
    const endpoint = m[1] ?? ''
    if (!SENDING.has(endpoint)) return []
    const guarded = enclosingCalls(text, m.index).some((name) => /^(run|\w+Run)$/.test(name))
    return [{ endpoint, guarded }]
  })
}

describe('every form or button that sends uses useBusy (docs/client.md#sending-something)', () => {
  const found = sources(SRC).flatMap((path) => {
    const file = relative(SRC, path)
    return sends(readFileSync(path, 'utf8')).map((s) => ({ site: `${file} ${s.endpoint}`, ...s }))
  })

  it('finds the sends (the contract has sending endpoints and pages send them)', () => {
    expect(SENDING.has('placeBets')).toBe(true)
    expect(found.length).toBeGreaterThan(15)
  })

  it('runs each send inside run() of useBusy, or says why it is not a form of its own', () => {
    const unguarded = found
      .filter((s) => !s.guarded)
      .map((s) => s.site)
      .sort()
    expect(unguarded).toEqual(Object.keys(NOT_A_FORM).sort())
  })
})
