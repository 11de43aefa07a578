import type { FaultRuleInput } from '@shared/emu-control'
import { describe, expect, it } from 'vitest'
import { globToRegExp } from './glob'
import { type RequestFacts, RuleInputError, RuleStore } from './rule-store'

const req = (over: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'GET',
  path: '/api/api/getBalance',
  scope: null,
  now: 1_000,
  ...over,
})

const status503: FaultRuleInput['action'] = { type: 'status', status: 503 }

/** Which of n identical calls the store fires on, as a string of 1s and 0s. */
function pattern(store: RuleStore, n: number, facts: Partial<RequestFacts> = {}): string {
  let out = ''
  for (let i = 0; i < n; i++) out += store.decide(req(facts)) ? '1' : '0'
  return out
}

describe('globs', () => {
  it('* is one segment, ** any number, the rest literal', () => {
    expect(globToRegExp('/api/*/getBalance').test('/api/api/getBalance')).toBe(true)
    expect(globToRegExp('/api/*').test('/api/api/getBalance')).toBe(false)
    expect(globToRegExp('/api/**').test('/api/api/getBalance')).toBe(true)
    expect(globToRegExp('/api/**').test('/api')).toBe(true)
    expect(globToRegExp('/api/users.info').test('/api/usersXinfo')).toBe(false)
  })
})

describe('rule schedules', () => {
  it('times: fires that many times, then stays listed as spent', () => {
    const store = new RuleStore()
    const rule = store.add({ action: status503, times: 2 }, 0)
    expect(pattern(store, 5)).toBe('11000')
    expect(store.get(rule.id)).toMatchObject({ matched: 5, fired: 2, spent: true })
  })

  it('after: lets the first N through, then fires', () => {
    const store = new RuleStore()
    store.add({ action: status503, after: 2, times: 2 }, 0)
    expect(pattern(store, 6)).toBe('001100')
  })

  it('every: every Nth eligible call, counted after `after`', () => {
    const store = new RuleStore()
    store.add({ action: status503, every: 3 }, 0)
    expect(pattern(store, 9)).toBe('001001001')
    const late = new RuleStore()
    late.add({ action: status503, every: 2, after: 3, times: 2 }, 0)
    expect(pattern(late, 10)).toBe('0000101000')
  })

  it('retryPasses: the call a rule failed goes through when asked again, uncounted', () => {
    const store = new RuleStore()
    store.add({ action: status503, every: 3, retryPasses: true }, 0)
    const a = { path: '/api/api/getBalance' }
    const b = { path: '/api/api2/announcement' }
    const c = { path: '/api/users/info' }
    const fires = (facts: Partial<RequestFacts>) => (store.decide(req(facts)) ? '1' : '0')
    // a, b, then c fails; two others; c again passes without counting; the next call is the sixth.
    expect([a, b, c, a, b, c, a].map(fires).join('')).toBe('0010001')
    const plain = new RuleStore()
    plain.add({ action: status503, every: 3 }, 0)
    expect(pattern(plain, 6, c)).toBe('001001')
    const retried = new RuleStore()
    retried.add({ action: status503, every: 3, retryPasses: true }, 0)
    expect(pattern(retried, 7, c)).toBe('0010001')
  })

  it('nth: only the nth matching call', () => {
    const store = new RuleStore()
    store.add({ match: { path: '/api/**', nth: 3 }, action: status503 }, 0)
    expect(pattern(store, 5)).toBe('00100')
  })

  it('until: stops firing at that emulator time', () => {
    const store = new RuleStore()
    store.add({ action: status503, until: 2_000 }, 0)
    expect(store.decide(req({ now: 1_999 }))).not.toBeNull()
    expect(store.decide(req({ now: 2_000 }))).toBeNull()
  })

  it('probability: the same seed replays the same calls; the rate is about right', () => {
    const run = (seed: number) => {
      const store = new RuleStore(seed)
      store.add({ action: status503, probability: 0.3 }, 0)
      return pattern(store, 2_000)
    }
    const a = run(42)
    expect(run(42)).toBe(a)
    expect(run(43)).not.toBe(a)
    const rate = [...a].filter((c) => c === '1').length / a.length
    expect(rate).toBeGreaterThan(0.25)
    expect(rate).toBeLessThan(0.35)
    const never = new RuleStore(42)
    never.add({ action: status503, probability: 0 }, 0)
    expect(pattern(never, 50)).toBe('0'.repeat(50))
  })

  it("probability: a rule's draws don't depend on other scopes' traffic", () => {
    const alone = new RuleStore(7)
    alone.add({ action: status503, probability: 0.5, scope: 'a' }, 0)
    const busy = new RuleStore(7)
    busy.add({ action: status503, probability: 0.5, scope: 'a' }, 0)
    busy.add({ action: status503, probability: 0.5, scope: 'b' }, 0)
    let a = ''
    let b = ''
    for (let i = 0; i < 100; i++) {
      a += alone.decide(req({ scope: 'a' })) ? '1' : '0'
      busy.decide(req({ scope: 'b' }))
      b += busy.decide(req({ scope: 'a' })) ? '1' : '0'
    }
    expect(b).toBe(a)
  })

  it('scope: a scoped rule sees only its scope; an unscoped one sees everyone', () => {
    const store = new RuleStore()
    store.add({ action: status503, scope: 'a' }, 0)
    expect(store.decide(req({ scope: 'b' }))).toBeNull()
    expect(store.decide(req({ scope: null }))).toBeNull()
    expect(store.decide(req({ scope: 'a' }))).not.toBeNull()
    store.add({ action: { type: 'hang' } }, 0)
    expect(store.decide(req({ scope: 'b' }))?.action.type).toBe('hang')
  })

  it('method and path narrow the match; the first firing rule wins, every match counts', () => {
    const store = new RuleStore()
    const post = store.add({ match: { method: 'post', path: '/api/**' }, action: status503 }, 0)
    const first = store.add({ match: { path: '/api/api/*' }, action: { type: 'reset' }, times: 1 }, 0)
    const second = store.add({ match: { path: '/api/**' }, action: { type: 'empty' } }, 0)
    expect(store.decide(req())?.rule.id).toBe(first.id)
    expect(store.decide(req())?.rule.id).toBe(second.id)
    expect(store.decide(req({ method: 'POST' }))?.rule.id).toBe(post.id)
    expect(store.get(second.id)).toMatchObject({ matched: 3, fired: 1 })
    expect(store.get(post.id)?.matched).toBe(1)
  })

  it('lists, removes and clears by scope', () => {
    const store = new RuleStore()
    const a = store.add({ action: status503, scope: 'a' }, 0)
    store.add({ action: status503, scope: 'b' }, 0)
    store.add({ action: status503 }, 0)
    expect(store.list('a').map((r) => r.id)).toEqual([a.id])
    expect(store.list(null)).toHaveLength(1)
    expect(store.clear('b')).toBe(1)
    expect(store.remove(a.id)).toBe(true)
    expect(store.remove(a.id)).toBe(false)
    expect(store.size).toBe(1)
  })

  it('refuses a rule that does not parse', () => {
    const store = new RuleStore()
    expect(() => store.add({ action: { type: 'delay' } }, 0)).toThrow(/ms/)
    expect(() => store.add({ action: status503, probability: 2 }, 0)).toThrow()
  })
})

describe('matchers on query, headers and body fields', () => {
  const fields = (pairs: Record<string, string>) => () =>
    new Map(Object.entries(pairs).map(([k, v]) => [k, [v]]))

  it('equality, regex and presence, every test must hold', () => {
    const store = new RuleStore()
    store.add(
      {
        match: {
          path: '/api/**',
          query: { player_id: 7 },
          headers: { 'X-Client': { matches: '^ios' } },
          body: { pay_password: { present: true }, amount: { equals: '500' } },
        },
        action: status503,
      },
      0,
    )
    const full = {
      query: fields({ player_id: '7' }),
      headers: fields({ 'x-client': 'ios 17' }),
      body: fields({ pay_password: '1', amount: '500' }),
    }
    expect(store.decide(req(full))).not.toBeNull()
    expect(store.decide(req({ ...full, query: fields({ player_id: '8' }) }))).toBeNull()
    expect(store.decide(req({ ...full, headers: fields({ 'x-client': 'android' }) }))).toBeNull()
    expect(store.decide(req({ ...full, body: fields({ amount: '500' }) }))).toBeNull()
    expect(store.decide(req({ ...full, body: fields({ pay_password: '1', amount: '50' }) }))).toBeNull()
    // A call that fails a test is not counted as matched.
    expect(store.list()[0]?.matched).toBe(1)
    const absent = new RuleStore()
    absent.add({ match: { query: { debug: { present: false } } }, action: status503 }, 0)
    expect(absent.decide(req({ query: fields({ debug: '1' }) }))).toBeNull()
    expect(absent.decide(req({ query: fields({}) }))).not.toBeNull()
  })

  it('says when a decision must wait for the body', () => {
    const store = new RuleStore()
    store.add({ match: { path: '/api/api2/withdraw', body: { amount: '1' } }, action: status503 }, 0)
    expect(store.needsBody(req({ path: '/api/api2/withdraw' }))).toBe(true)
    expect(store.needsBody(req({ path: '/api/api/getBalance' }))).toBe(false)
  })

  it('refuses a path with a query string, and a bad regex, naming the field', () => {
    const store = new RuleStore()
    expect(() => store.add({ match: { path: '/api/x?player_id=1' }, action: status503 }, 0)).toThrow(
      /match\.query/,
    )
    expect(() => store.add({ match: { query: { a: { matches: '(' } } }, action: status503 }, 0)).toThrow(
      /regular expression/,
    )
  })
})

describe('state machines', () => {
  it('a rule fires only in its state and moves the machine; each scope has its own machine', () => {
    const store = new RuleStore()
    const rule = (whenState: string, setState: string, code: number, scope?: string) =>
      store.add(
        {
          inScenario: 'm',
          whenState,
          setState,
          action: { type: 'envelope', code },
          ...(scope ? { scope } : {}),
        },
        0,
      )
    for (const scope of ['a', 'b']) {
      rule('Started', 'two', 1, scope)
      rule('two', 'three', 2, scope)
      rule('three', 'Started', 3, scope)
    }
    const codes = (scope: string, n: number) => {
      const out: unknown[] = []
      for (let i = 0; i < n; i++) {
        const f = store.decide(req({ scope }))
        out.push(f?.action.type === 'envelope' ? f.action.code : null)
      }
      return out
    }
    expect(codes('a', 4)).toEqual([1, 2, 3, 1])
    expect(codes('b', 1)).toEqual([1])
    expect(store.stateOf('a', 'm')).toBe('two')
    expect(store.stateOf('b', 'm')).toBe('two')
    store.setState('a', 'm', 'three')
    expect(codes('a', 1)).toEqual([3])
    store.clear('a')
    expect(store.stateOf('a', 'm')).toBe('Started')
    expect(store.stateOf('b', 'm')).toBe('two')
    expect(() => store.add({ whenState: 'x', action: status503 }, 0)).toThrow(/inScenario/)
  })

  it('the call that moves a machine is not counted by the rules of the state it moved to', () => {
    const store = new RuleStore()
    const first = store.add(
      { inScenario: 'm', whenState: 'Started', setState: 's2', action: { type: 'envelope', code: 1 } },
      0,
    )
    const second = store.add(
      {
        match: { nth: 1 },
        inScenario: 'm',
        whenState: 's2',
        setState: 'done',
        action: { type: 'envelope', code: 2 },
      },
      0,
    )
    const codes: unknown[] = []
    for (let i = 0; i < 3; i++) {
      const f = store.decide(req())
      codes.push(f?.action.type === 'envelope' ? f.action.code : null)
    }
    expect(codes).toEqual([1, 2, null])
    expect(store.get(first.id)).toMatchObject({ matched: 1, fired: 1 })
    expect(store.get(second.id)).toMatchObject({ matched: 1, fired: 1, spent: true })
    expect(store.stateOf(null, 'm')).toBe('done')
  })
})

describe('the store’s edges', () => {
  const fields = (pairs: Record<string, string>) => () =>
    new Map(Object.entries(pairs).map(([k, v]) => [k, [v]]))

  it('refuses setState without inScenario too, with its own error', () => {
    const store = new RuleStore()
    expect(() => store.add({ setState: 'x', action: status503 }, 0)).toThrow(RuleInputError)
    expect(() => store.add({ setState: 'x', action: status503 }, 0)).toThrow(
      expect.objectContaining({ name: 'RuleInputError' }),
    )
  })

  it('finds and removes exactly the rule asked for', () => {
    const store = new RuleStore()
    const a = store.add({ action: status503 }, 0)
    const b = store.add({ action: status503 }, 0)
    expect(store.get(b.id)?.id).toBe(b.id)
    expect(store.get('no-such-rule')).toBeUndefined()
    expect(store.remove(b.id)).toBe(true)
    expect(store.list().map((r) => r.id)).toEqual([a.id])
    expect(store.remove('no-such-rule')).toBe(false)
  })

  it('clear() removes every rule, the first included, and every machine’s state', () => {
    const store = new RuleStore()
    store.add({ action: status503, scope: 'a' }, 0)
    store.add({ action: status503 }, 0)
    store.setState('a', 'm', 'two')
    store.setState(null, 'n', 'two')
    expect(store.clear()).toBe(2)
    expect(store.size).toBe(0)
    expect(store.stateOf('a', 'm')).toBe('Started')
    expect(store.stateOf(null, 'n')).toBe('Started')
  })

  it('clear(scope) forgets that scope’s machines only', () => {
    const store = new RuleStore()
    store.setState('a', 'm', 'two')
    store.setState('b', 'm', 'two')
    store.setState(null, 'm', 'two')
    expect(store.clear('a')).toBe(0)
    expect(store.stateOf('a', 'm')).toBe('Started')
    expect(store.stateOf('b', 'm')).toBe('two')
    store.clear(null)
    expect(store.stateOf(null, 'm')).toBe('Started')
    expect(store.stateOf('b', 'm')).toBe('two')
  })

  it('lists the machines that have rules or have moved, all or one scope’s', () => {
    const store = new RuleStore()
    store.add({ inScenario: 'm', whenState: 'Started', action: status503, scope: 'a' }, 0)
    store.add({ inScenario: 'u', action: status503 }, 0)
    store.add({ action: status503, scope: 'b' }, 0)
    store.setState('b', 'k', 'two')
    store.setState('a', 'm', 'three')
    expect(store.machines()).toEqual([
      { scope: 'a', name: 'm', state: 'three' },
      { scope: null, name: 'u', state: 'Started' },
      { scope: 'b', name: 'k', state: 'two' },
    ])
    expect(store.machines('b')).toEqual([{ scope: 'b', name: 'k', state: 'two' }])
    expect(store.machines(null)).toEqual([{ scope: null, name: 'u', state: 'Started' }])
  })

  it('a rule in a scenario without whenState fires in any state, and one without setState leaves it', () => {
    const store = new RuleStore()
    store.add({ inScenario: 'm', action: status503 }, 0)
    store.setState(null, 'm', 'two')
    expect(store.decide(req())).not.toBeNull()
    expect(store.stateOf(null, 'm')).toBe('two')
    expect(store.machines()).toEqual([{ scope: null, name: 'm', state: 'two' }])
  })

  it('every counts from after: every: 3, after: 1 fires on calls 4, 7, 10', () => {
    const store = new RuleStore()
    store.add({ action: status503, every: 3, after: 1 }, 0)
    expect(pattern(store, 10)).toBe('0001001001')
  })

  it('retryPasses lets only the same call through, not another one', () => {
    const store = new RuleStore()
    store.add({ match: { path: '/api/**' }, action: status503, retryPasses: true }, 0)
    const a = { path: '/api/api/getBalance' }
    const b = { path: '/api/api2/announcement' }
    const fires = (facts: Partial<RequestFacts>) => (store.decide(req(facts)) ? '1' : '0')
    // The retry of the call just failed passes; any other call is failed on its own account.
    expect(fires(a) + fires(b) + fires(b) + fires(a)).toBe('1101')
  })

  it('every field test must hold, not just one, for query and headers alike', () => {
    const store = new RuleStore()
    store.add(
      {
        match: { query: { a: '1', b: '2' }, headers: { 'X-A': '1', 'X-B': '2' } },
        action: status503,
      },
      0,
    )
    const headers = fields({ 'x-a': '1', 'x-b': '2' })
    expect(store.decide(req({ query: fields({ a: '1', b: '2' }), headers }))).not.toBeNull()
    expect(store.decide(req({ query: fields({ a: '1', b: '3' }), headers }))).toBeNull()
    expect(
      store.decide(req({ query: fields({ a: '1', b: '2' }), headers: fields({ 'x-a': '1' }) })),
    ).toBeNull()
  })

  it('reads a request without fields as one with none', () => {
    const store = new RuleStore()
    store.add(
      { match: { query: { debug: { present: false } }, body: { x: { present: false } } }, action: status503 },
      0,
    )
    expect(store.decide(req())).not.toBeNull()
  })

  it('waits for the body only for a rule that could fire here and reads it', () => {
    const store = new RuleStore()
    const bodyRule = { path: '/api/w', body: { amount: '1' } }
    store.add({ match: { ...bodyRule, method: 'POST' }, action: status503, scope: 's' }, 0)
    expect(store.needsBody(req({ path: '/api/w', scope: 's', method: 'POST' }))).toBe(true)
    expect(store.needsBody(req({ path: '/api/w', scope: 't', method: 'POST' }))).toBe(false)
    expect(store.needsBody(req({ path: '/api/w', scope: 's', method: 'GET' }))).toBe(false)
    // A template that fills from the body needs it too; one that fills from elsewhere does not.
    const templated = new RuleStore()
    templated.add(
      {
        match: { path: '/api/t' },
        action: { type: 'status', status: 500, body: '{{ request.body.amount }}', template: true },
      },
      0,
    )
    templated.add(
      {
        match: { path: '/api/u' },
        action: { type: 'status', status: 500, body: '{{request.path}}', template: true },
      },
      0,
    )
    templated.add(
      { match: { path: '/api/v' }, action: { type: 'status', status: 500, body: '{{request.body.amount}}' } },
      0,
    )
    templated.add(
      {
        match: { path: '/api/x' },
        action: { type: 'status', status: 500, body: '{{request.body.amount}}', template: true },
      },
      0,
    )
    templated.add(
      {
        match: { path: '/api/y' },
        action: { type: 'status', status: 500, body: '{{request.body.amount}}', template: false },
      },
      0,
    )
    expect(templated.needsBody(req({ path: '/api/x' }))).toBe(true)
    expect(templated.needsBody(req({ path: '/api/y' }))).toBe(false)
    expect(templated.needsBody(req({ path: '/api/t' }))).toBe(true)
    expect(templated.needsBody(req({ path: '/api/u' }))).toBe(false)
    expect(templated.needsBody(req({ path: '/api/v' }))).toBe(false)
    // A spent rule no longer waits.
    const spent = new RuleStore()
    spent.add({ match: bodyRule, action: status503, times: 1 }, 0)
    expect(spent.needsBody(req({ path: '/api/w' }))).toBe(true)
    spent.decide(req({ path: '/api/w', body: fields({ amount: '1' }) }))
    expect(spent.needsBody(req({ path: '/api/w' }))).toBe(false)
  })

  it('gives rules added after a reseed the draws of a store made with that seed', () => {
    const draws = (store: RuleStore) => {
      store.add({ action: status503, probability: 0.5 }, 0)
      return pattern(store, 40)
    }
    const reseeded = new RuleStore()
    expect(reseeded.seed).toBe(1)
    reseeded.reseed(42)
    expect(reseeded.seed).toBe(42)
    expect(draws(reseeded)).toBe(draws(new RuleStore(42)))
    expect(draws(new RuleStore(42))).not.toBe(draws(new RuleStore(1)))
  })
})
