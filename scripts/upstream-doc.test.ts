import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { WHEN_MISSING } from '@client/lib/when-missing'
import { defineEndpoint } from '@shared/contract/endpoint'
import { ENDPOINTS } from '@shared/contract/registry'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ROOT_DIR } from '../server/paths'
import {
  clientUsage,
  fieldRows,
  importedNames,
  renderUpstreamDoc,
  typeText,
  UPSTREAM_DOC_PATH,
  upstreamDocText,
} from './upstream-doc'

describe('docs/upstream.md', () => {
  it('is what npm run upstream:doc writes now (run it after changing the contract or its callers)', () => {
    const checkedIn = readFileSync(join(ROOT_DIR, UPSTREAM_DOC_PATH), 'utf8')
    expect(checkedIn === upstreamDocText(), 'docs/upstream.md is stale: run npm run upstream:doc').toBe(true)
  })

  it('writes an endpoint’s method, path, provenance, fields with types and descriptions', () => {
    const probe = defineEndpoint({
      id: 'probe',
      method: 'POST',
      path: '/api/probe',
      summary: 'A probe',
      tag: 'test',
      source: 'spec',
      fields: 'ours',
      auth: true,
      encoding: 'multipart',
      body: z.strictObject({ size: z.string().regex(/^\d+$/).describe('How big') }),
      data: z.object({ items: z.array(z.object({ at: z.number().int().nullable() })) }),
    })
    const doc = renderUpstreamDoc([probe])
    expect(doc).toContain('### POST /api/probe')
    expect(doc).toContain('spec path, our fields')
    expect(doc).toContain('| `size` | body (multipart) | string (pattern `^\\d+$`) | yes | How big. |')
    expect(doc).toContain('| `items[].at` | integer \\| null | yes |  |')
    expect(doc).toContain('session: needed')
  })

  it('names the contract endpoints a client file imports as values only', () => {
    const text = [
      "import type { login, UserInfo } from '@shared/contract/account'",
      "import { type Foo, betHistory, gameRules as rules } from '@shared/contract/games'",
      "const accountContract = () => import('@shared/contract/account')",
      'accountContract().then((m) => m.getBalance)',
      'const { logout } = await accountContract()',
    ].join('\n')
    expect([...importedNames(text)].sort()).toEqual(['betHistory', 'gameRules', 'getBalance', 'logout'])
  })

  it('writes types: unions, enums, bounds, nested rows', () => {
    expect(typeText({ type: 'string', enum: ['a', 'b'] })).toBe('"a" | "b"')
    expect(typeText({ type: 'integer', minimum: 1, maximum: 100 })).toBe('integer (1–100)')
    expect(typeText({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null')
    const rows = fieldRows(
      {
        type: 'object',
        properties: { a: { type: 'object', properties: { b: { type: 'boolean' } }, required: ['b'] } },
      },
      new Map([['b', 'the b']]),
    )
    expect(rows).toEqual([
      { path: 'a', type: 'object', required: false, meaning: '' },
      { path: 'a.b', type: 'boolean', required: true, meaning: 'the b.' },
    ])
  })

  it('finds where the client calls an endpoint: the page, the pages showing a component, quiet calls', () => {
    const usage = clientUsage(ENDPOINTS)
    const bet = usage.get('placeBets') ?? []
    expect(bet.map((u) => u.file)).toEqual(['client/src/features/games/bet-bar.tsx'])
    expect(bet[0]?.shownOn.map((p) => p.path)).toContain('/games/qukuai')
    const limits = usage.get('protectionLimits') ?? []
    expect(limits.find((u) => u.file.endsWith('protection-page.tsx'))).toMatchObject({
      page: [{ title: '游戏限制与自我保护', path: '/protection' }],
      quiet: true,
    })
    expect(usage.get('ping')?.find((u) => u.file.includes('offline-banner'))?.shell).toBe(true)
    // Type-only imports are not calls.
    expect(usage.get('login')?.map((u) => u.file)).toEqual(['client/src/lib/session-actions.ts'])
  })

  it('says, for every endpoint of ours the client calls, what the app does when the upstream does not offer it', () => {
    const usage = clientUsage(ENDPOINTS)
    const called = ENDPOINTS.filter((e) => e.fields === 'ours' && (usage.get(e.id) ?? []).length > 0).map(
      (e) => e.id,
    )
    expect(
      called.filter((id) => !WHEN_MISSING[id]),
      'add them to client/src/lib/when-missing.ts',
    ).toEqual([])
    expect(
      Object.keys(WHEN_MISSING).filter((id) => !called.includes(id)),
      'not endpoints of ours the client calls',
    ).toEqual([])
    const activities = ENDPOINTS.find((e) => e.id === 'activityList')
    if (!activities) throw new Error('no activityList')
    expect(renderUpstreamDoc([activities])).toContain(
      `When the upstream does not offer it (HTTP 404, 405 or 501, code 40500, an unknown code): ${WHEN_MISSING.activityList}.`,
    )
  })

  it('tells a quiet call from a loud one in the same file', () => {
    const limits = clientUsage(ENDPOINTS).get('setProtectionLimit') ?? []
    expect(limits.map((u) => u.quiet)).toEqual([false])
  })
})
