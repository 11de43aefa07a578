import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { announcement, getBalance, userInfo } from './account'
import type { Endpoint, EndpointRoute } from './endpoint'
import { announcementRoute, getBalanceRoute, readAnnouncementList, userInfoRoute } from './first-screen'

const loose = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constant(2 ** 60),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
)

const goodAnnouncement = fc.record({
  id: fc.integer(),
  title: fc.string(),
  content: fc.string(),
  pinned: fc.boolean(),
  published_at: fc.integer({ min: 0 }),
})

/** Announcements with some fields missing or of the wrong type, and keys of their own. */
const anyAnnouncement = fc.oneof(
  goodAnnouncement,
  fc
    .tuple(goodAnnouncement, fc.dictionary(fc.string(), fc.jsonValue()))
    .map(([a, extra]) => ({ ...extra, ...a })),
  fc.record(
    {
      id: fc.oneof(fc.integer(), loose),
      title: fc.oneof(fc.string(), loose),
      content: fc.oneof(fc.string(), loose),
      pinned: fc.oneof(fc.boolean(), loose),
      published_at: fc.oneof(fc.integer(), loose),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
)

const answer = fc.oneof(
  fc.record({ list: fc.array(goodAnnouncement, { maxLength: 4 }) }),
  fc.record(
    { list: fc.array(anyAnnouncement, { maxLength: 4 }), extra: fc.jsonValue() },
    { requiredKeys: [] },
  ),
  fc.record({ list: loose }),
  fc.jsonValue(),
)

describe('readAnnouncementList', () => {
  it('reads every value as the announcement endpoint parses it', () => {
    fc.assert(
      fc.property(answer, (value) => {
        const parsed = announcement.data.safeParse(value)
        expect(readAnnouncementList(value)).toStrictEqual(parsed.success ? parsed.data : null)
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps the fields of each announcement and drops the rest', () => {
    const item = { id: 1, title: 't', content: 'c', pinned: false, published_at: 5 }
    expect(readAnnouncementList({ list: [{ ...item, extra: 1 }], more: true })).toStrictEqual({
      list: [item],
    })
    expect(readAnnouncementList({ list: [{ ...item, id: 1.5 }] })).toBeNull()
    expect(readAnnouncementList({ list: {} })).toBeNull()
  })
})

describe('first-screen routes', () => {
  it('are the wire side of the account endpoints', () => {
    const pairs: [EndpointRoute, Endpoint][] = [
      [announcementRoute, announcement],
      [userInfoRoute, userInfo],
      [getBalanceRoute, getBalance],
    ]
    for (const [route, endpoint] of pairs) {
      const { method, path, auth, encoding, loadingToast, idempotent } = endpoint
      expect({ method, path, auth, encoding, loadingToast, idempotent }).toStrictEqual({
        encoding: undefined,
        loadingToast: undefined,
        idempotent: undefined,
        ...route,
      })
    }
  })

  it('load no zod (the client sends them from its entry chunk)', () => {
    const source = readFileSync(new URL('./first-screen.ts', import.meta.url), 'utf8')
    const runtimeImports = [...source.matchAll(/^import (?!type )[^\n]* from '([^']+)'/gm)].map((m) => m[1])
    expect(runtimeImports).toStrictEqual(['../plain-read'])
  })
})
