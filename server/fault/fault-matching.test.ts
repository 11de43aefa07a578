import type { FastifyRequest } from 'fastify'
import { describe, expect, it, vi } from 'vitest'
import { EmuClock } from '../emulator/clock'
import { FaultMatcher } from './fault-matching'
import { tokenKey } from './journal'
import type { RequestFacts } from './rule-store'

/** The fault matcher on its own: session faults and limits, and the templated answers of rules. */

const T0 = 1_700_000_000_000

function matcher() {
  const clock = new EmuClock(() => T0)
  clock.freeze(T0)
  return { clock, m: new FaultMatcher(clock) }
}

const facts = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'POST',
  path: '/api/api/withdraw',
  scope: null,
  now: T0,
  ...over,
})

describe('session faults', () => {
  it('fails the named session on every call from then on, and no other', () => {
    const { m } = matcher()
    expect(m.sessionVerdict('tok-a', null, T0)).toBeNull()
    m.failSession('tok-a', 'revoke')
    expect(m.sessionVerdict('tok-a', null, T0)).toBe('revoke')
    expect(m.sessionVerdict('tok-a', null, T0)).toBe('revoke')
    expect(m.sessionVerdict('tok-b', null, T0)).toBeNull()
    expect(m.sessionVerdict(null, null, T0)).toBeNull()
  })

  it('tells its listeners which session failed, and how', () => {
    const { m } = matcher()
    const heard = vi.fn()
    m.onSessionFault(heard)
    m.failSession('tok-a', 'expire', 's1')
    expect(heard).toHaveBeenCalledWith('tok-a', 'expire')
  })

  it('"any" fails the next call carrying a token in the scope, and only that session', () => {
    const { m } = matcher()
    m.failSession('any', 'revoke', 's1')
    expect(m.sessionVerdict(null, 's1', T0)).toBeNull()
    expect(m.sessionVerdict('tok-x', 's2', T0)).toBeNull()
    expect(m.sessionVerdict('tok-a', 's1', T0)).toBe('revoke')
    expect(m.sessionVerdict('tok-b', 's1', T0)).toBeNull()
    expect(m.sessionVerdict('tok-a', 's1', T0)).toBe('revoke')
    expect(m.sessionFaultList()).toEqual([{ token: tokenKey('tok-a'), fault: 'revoke', scope: 's1' }])
  })

  it('an unscoped "any" takes the next call in any scope', () => {
    const { m } = matcher()
    m.failSession('any', 'expire')
    expect(m.sessionVerdict('tok-a', 's9', T0)).toBe('expire')
  })

  it('lists the faults with shortened tokens, and the "any" still waiting (as expire unless told)', () => {
    const { m } = matcher()
    m.failSession('tok-a', 'revoke', 's1')
    m.failSession('any', 'revoke', 's2')
    m.limitSession('any', { requests: 1 }, null)
    expect(m.sessionFaultList()).toEqual([
      { token: tokenKey('tok-a'), fault: 'revoke', scope: 's1' },
      { token: 'any', fault: 'revoke', scope: 's2' },
      { token: 'any', fault: 'expire', scope: null },
    ])
  })
})

describe('session limits', () => {
  it('allows that many more calls, then expires the session for good', () => {
    const { m } = matcher()
    m.limitSession('tok-a', { requests: 2 })
    expect(m.sessionVerdict('tok-a', null, T0)).toBeNull()
    expect(m.sessionVerdict('tok-a', null, T0)).toBeNull()
    expect(m.sessionVerdict('tok-a', null, T0)).toBe('expire')
    expect(m.sessionVerdict('tok-a', null, T0)).toBe('expire')
    expect(m.sessionFaultList()).toEqual([{ token: tokenKey('tok-a'), fault: 'expire', scope: null }])
  })

  it('a limit of 0 requests expires the very next call', () => {
    const { m } = matcher()
    m.limitSession('tok-a', { requests: 0 })
    expect(m.sessionVerdict('tok-a', null, T0)).toBe('expire')
  })

  it('expires at the time set on the scope’s clock, to the millisecond', () => {
    const { clock, m } = matcher()
    clock.forScope('s1').setOffset(60_000)
    m.limitSession('tok-a', { ms: 1_000 }, 's1')
    // The scope's clock is a minute ahead: the session lasts until T0 + 61 s.
    expect(m.sessionVerdict('tok-a', 's1', T0 + 60_999)).toBeNull()
    expect(m.sessionVerdict('tok-a', 's1', T0 + 61_000)).toBe('expire')
  })

  it('an unscoped limit reads the clock of the token’s own scope', () => {
    const { clock, m } = matcher()
    clock.forScope('tok-a').setOffset(5_000)
    m.limitSession('tok-a', { ms: 1_000 })
    expect(m.sessionVerdict('tok-a', null, T0 + 5_999)).toBeNull()
    expect(m.sessionVerdict('tok-a', null, T0 + 6_000)).toBe('expire')
  })

  it('counts requests and time together: whichever runs out first', () => {
    const { m } = matcher()
    m.limitSession('tok-a', { requests: 5, ms: 1_000 })
    expect(m.sessionVerdict('tok-a', null, T0)).toBeNull()
    expect(m.sessionVerdict('tok-a', null, T0 + 1_000)).toBe('expire')
  })

  it('"any" limits the next session that calls in the scope', () => {
    const { m } = matcher()
    m.limitSession('any', { requests: 1 }, 's1')
    expect(m.sessionVerdict('tok-a', 's1', T0)).toBeNull()
    expect(m.sessionVerdict('tok-a', 's1', T0)).toBe('expire')
    expect(m.sessionVerdict('tok-b', 's1', T0)).toBeNull()
    expect(m.sessionVerdict('tok-b', 's1', T0)).toBeNull()
  })
})

describe('clearing session faults', () => {
  const setUp = () => {
    const { m } = matcher()
    m.failSession('tok-a', 'revoke', 's1')
    m.failSession('tok-b', 'revoke', 's2')
    m.failSession('tok-c', 'revoke')
    // A fault set up unscoped on a token that is itself the scope's name.
    m.failSession('s1', 'expire')
    m.limitSession('tok-d', { requests: 0 }, 's1')
    m.limitSession('tok-e', { requests: 0 }, 's2')
    m.failSession('any', 'revoke', 's1')
    m.failSession('any', 'revoke', 's2')
    return m
  }

  it('drops every one when no scope is named', () => {
    const m = setUp()
    m.clearSessions()
    expect(m.sessionFaultList()).toEqual([])
    for (const t of ['tok-a', 'tok-b', 'tok-c', 'tok-d', 'tok-e', 's1'])
      expect(m.sessionVerdict(t, 's3', T0)).toBeNull()
  })

  it('drops those of one scope, and the faults on the token that names it', () => {
    const m = setUp()
    m.clearSessions('s1')
    expect(m.sessionFaultList()).toEqual([
      { token: tokenKey('tok-b'), fault: 'revoke', scope: 's2' },
      { token: tokenKey('tok-c'), fault: 'revoke', scope: null },
      { token: 'any', fault: 'revoke', scope: 's2' },
    ])
    expect(m.sessionVerdict('tok-d', 's1', T0)).toBeNull()
    expect(m.sessionVerdict('tok-e', 's2', T0)).toBe('revoke')
  })

  it('null drops the unscoped ones only', () => {
    const m = setUp()
    m.clearSessions(null)
    expect(m.sessionFaultList().map((f) => f.scope)).toEqual(['s1', 's2', 's1', 's2'])
    expect(m.sessionVerdict('tok-e', 's2', T0)).toBe('revoke')
  })
})

describe('clearing session limits', () => {
  const setUp = () => {
    const { m } = matcher()
    m.limitSession('tok-d', { requests: 0 }, 's1')
    m.limitSession('tok-e', { requests: 0 }, 's2')
    m.limitSession('tok-f', { requests: 0 })
    // A limit set up unscoped on a token that is itself the scope's name.
    m.limitSession('s1', { requests: 0 })
    return m
  }
  const verdicts = (m: FaultMatcher) =>
    ['tok-d', 'tok-e', 'tok-f', 's1'].map((t) => m.sessionVerdict(t, null, T0))

  it('drops the scope’s limits and the one on the token that names it', () => {
    const m = setUp()
    m.clearSessions('s1')
    expect(verdicts(m)).toEqual([null, 'expire', 'expire', null])
  })

  it('null drops the unscoped limits, not the one on a token named like a scope', () => {
    const m = setUp()
    m.clearSessions(null)
    expect(verdicts(m)).toEqual(['expire', 'expire', null, null])
  })

  it('a scope names no limit set unscoped on another token', () => {
    const m = setUp()
    m.clearSessions('s2')
    expect(verdicts(m)).toEqual(['expire', null, 'expire', 'expire'])
  })
})

describe('request facts', () => {
  it('splits the path from the query and reads fields only when asked', () => {
    const { m } = matcher()
    const request = {
      method: 'GET',
      url: '/api/api/list?page=2&page=3',
      headers: { 'X-Client': 'ios' },
    } as unknown as FastifyRequest
    const f = m.facts(request, 's1', T0)
    expect(f).toMatchObject({ method: 'GET', path: '/api/api/list', scope: 's1', now: T0 })
    expect(f.query?.().get('page')).toEqual(['2', '3'])
    expect(f.headers?.().get('x-client')).toEqual(['ios'])
    expect(m.facts({ ...request, url: '/api/x' } as FastifyRequest, null, T0).path).toBe('/api/x')
    const withBody = m.withBody(f, Buffer.from('{"amount":"5"}'), 'application/json')
    expect(withBody.body?.().get('amount')).toEqual(['5'])
    expect(withBody.path).toBe('/api/api/list')
  })
})

describe('templated answers', () => {
  it('fills an envelope’s message and data from the request, the counter and the clock', () => {
    const { m } = matcher()
    m.rules.add(
      {
        action: {
          type: 'envelope',
          code: 0,
          msg: '{{request.method}} {{request.path}} #{{counter}}',
          message: 'at {{nowIso}}',
          data: {
            n: '{{counter}}',
            t: '{{ now }}',
            list: ['{{request.query.id}}', '{{request.headers.X-Client}}', '{{request.body.amount}}', 7],
            missing: '{{request.query.nope}} {{unknown}}',
          },
          template: true,
        },
      },
      T0,
    )
    const base = facts({
      query: () => new Map([['id', ['42']]]),
      headers: () => new Map([['x-client', ['ios']]]),
      body: () => new Map([['amount', ['5.5']]]),
    })
    expect(m.decide(base)?.action).toEqual({
      type: 'envelope',
      code: 0,
      msg: 'POST /api/api/withdraw #1',
      message: `at ${new Date(T0).toISOString()}`,
      data: { n: 1, t: T0, list: ['42', 'ios', '5.5', 7], missing: '{{request.query.nope}} {{unknown}}' },
      template: true,
    })
    expect(m.decide(base)?.action).toMatchObject({ msg: 'POST /api/api/withdraw #2', data: { n: 2 } })
  })

  it('leaves fields the request does not have as written, and data null when there is none', () => {
    const { m } = matcher()
    m.rules.add(
      {
        action: {
          type: 'envelope',
          code: 5,
          data: ['{{request.query.a}}', '{{request.headers.b}}', '{{request.body.c}}', '{{request.query.}}'],
          template: true,
        },
      },
      T0,
    )
    expect(m.decide(facts())?.action).toEqual({
      type: 'envelope',
      code: 5,
      data: ['{{request.query.a}}', '{{request.headers.b}}', '{{request.body.c}}', '{{request.query.}}'],
      template: true,
    })
    const none = new FaultMatcher(new EmuClock(() => T0))
    none.rules.add({ action: { type: 'envelope', code: 5, template: true } }, T0)
    expect(none.decide(facts())?.action).toEqual({ type: 'envelope', code: 5, data: null, template: true })
  })

  it('reads only names of the form request.<part>.<field>, query fields in their own case, and spaces in braces', () => {
    const { m } = matcher()
    m.rules.add(
      {
        action: {
          type: 'status',
          status: 500,
          body: ['{{xrequest.query.Id}}', '{{request.query.Id}}', '{{ request.path }}', '{{counter}} calls'],
          template: true,
        },
      },
      T0,
    )
    const f = facts({ query: () => new Map([['Id', ['42']]]) })
    expect(m.decide(f)?.action).toMatchObject({
      body: ['{{xrequest.query.Id}}', '42', '/api/api/withdraw', '1 calls'],
    })
  })

  it('fills a status answer’s body, and leaves an untemplated answer as written', () => {
    const { m } = matcher()
    m.rules.add(
      {
        match: { path: '/a' },
        action: { type: 'status', status: 503, body: 'busy {{request.path}}', template: true },
      },
      T0,
    )
    m.rules.add(
      { match: { path: '/b' }, action: { type: 'status', status: 503, body: 'busy {{request.path}}' } },
      T0,
    )
    m.rules.add(
      {
        match: { path: '/c' },
        action: { type: 'status', status: 502, body: { at: '{{now}}' }, template: false },
      },
      T0,
    )
    expect(m.decide(facts({ path: '/a' }))?.action).toEqual({
      type: 'status',
      status: 503,
      body: 'busy /a',
      template: true,
    })
    expect(m.decide(facts({ path: '/b' }))?.action).toEqual({
      type: 'status',
      status: 503,
      body: 'busy {{request.path}}',
    })
    expect(m.decide(facts({ path: '/c' }))?.action).toEqual({
      type: 'status',
      status: 502,
      body: { at: '{{now}}' },
      template: false,
    })
    expect(m.decide(facts({ path: '/d' }))).toBeNull()
  })
})
