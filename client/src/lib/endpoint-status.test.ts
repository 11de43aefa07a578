import { availabilityOf } from '@client/components/read-state/read-state'
import { describe, expect, it } from 'vitest'
import { classifyFailure, type FailureClass, type FailureFacts, isEndpointMissing } from './endpoint-status'

/** ApiError's fields (lib/http.ts) as the HTTP client fills them for each answer. */
const CASES: readonly [string, FailureFacts, FailureClass][] = [
  ['HTTP 404, no envelope', { kind: 'http', details: { status: 404 } }, 'missing'],
  ['HTTP 404 with an envelope', { kind: 'business', details: { status: 404, code: 40400 } }, 'missing'],
  ['HTTP 404 with a success code', { kind: 'http', details: { status: 404, code: 1 } }, 'missing'],
  ['HTTP 405, no envelope', { kind: 'http', details: { status: 405 } }, 'missing'],
  ['HTTP 405 with an envelope', { kind: 'business', details: { status: 405, code: 40500 } }, 'missing'],
  ['HTTP 501', { kind: 'business', details: { status: 501, code: 501 } }, 'missing'],
  ['code 40500 in a 200', { kind: 'business', details: { status: 200, code: 40500 } }, 'missing'],
  ['an unknown code', { kind: 'business', details: { status: 200, code: 99999 } }, 'missing'],
  [
    'an unknown code to a read',
    { kind: 'business', details: { status: 200, code: 99999, method: 'GET' } },
    'missing',
  ],
  [
    'an unknown code to a write',
    { kind: 'business', details: { status: 200, code: 1001, method: 'POST' } },
    'refused',
  ],
  [
    'HTTP 404 to a write',
    { kind: 'business', details: { status: 404, code: 404, method: 'POST' } },
    'missing',
  ],
  [
    'code 40500 to a write',
    { kind: 'business', details: { status: 200, code: 40500, method: 'POST' } },
    'missing',
  ],
  ['an unknown code, no status', { kind: 'business', details: { code: 7 } }, 'missing'],
  ['a success of another shape', { kind: 'invalid-response', details: { status: 200, code: 1 } }, 'missing'],
  ['a 2xx that is not an envelope', { kind: 'invalid-response', details: { status: 200 } }, 'missing'],
  ['code 0 (a business rule)', { kind: 'business', details: { status: 200, code: 0 } }, 'refused'],
  ['code 40000 (bad input)', { kind: 'business', details: { status: 400, code: 40000 } }, 'refused'],
  [
    'code 40400 in a 200 (what it names is not there)',
    { kind: 'business', details: { status: 200, code: 40400 } },
    'refused',
  ],
  ['code 42900 (rate limited)', { kind: 'business', details: { status: 429, code: 42900 } }, 'refused'],
  ['code 50000 (server failure)', { kind: 'business', details: { status: 500, code: 50000 } }, 'refused'],
  ['code 50300 (shedding load)', { kind: 'business', details: { status: 503, code: 50300 } }, 'refused'],
  ['an unknown code with HTTP 503', { kind: 'business', details: { status: 503, code: 503 } }, 'refused'],
  ['an unknown code with HTTP 400', { kind: 'business', details: { status: 400, code: 4001 } }, 'refused'],
  ['HTTP 502 with an HTML page', { kind: 'http', details: { status: 502 } }, 'unreachable'],
  ['no connection', { kind: 'network' }, 'unreachable'],
  ['a time-out', { kind: 'timeout' }, 'unreachable'],
  ['HTTP 401', { kind: 'unauthorized', details: { status: 401 } }, 'session'],
  ['code 10001', { kind: 'session', details: { status: 200, code: 10001 } }, 'session'],
  ['cancelled', { kind: 'aborted' }, 'aborted'],
]

describe('classifyFailure', () => {
  for (const [name, facts, expected] of CASES) {
    it(`${name}: ${expected}`, () => expect(classifyFailure(facts)).toBe(expected))
  }

  it('isEndpointMissing reads anything thrown', () => {
    const failure = (kind: string, details: object) => Object.assign(new Error('x'), { kind, details })
    expect(isEndpointMissing(failure('http', { status: 404 }))).toBe(true)
    expect(isEndpointMissing(failure('business', { code: 0 }))).toBe(false)
    expect(isEndpointMissing(new Error('boom'))).toBe(false)
    expect(isEndpointMissing(null)).toBe(false)
  })
})

describe('availabilityOf', () => {
  it('is ready with data whatever a later failure, loading before either', () => {
    expect(availabilityOf({ list: [] }, { kind: 'http', details: { status: 404 } })).toBe('ready')
    expect(availabilityOf(undefined, undefined)).toBe('loading')
  })

  it('says why there is no data', () => {
    expect(availabilityOf(undefined, { kind: 'http', details: { status: 405 } })).toBe('missing')
    expect(availabilityOf(undefined, { kind: 'business', details: { code: 0 } })).toBe('refused')
    expect(availabilityOf(undefined, { kind: 'network' })).toBe('unreachable')
  })
})
