import { type Db, openDatabase } from '@server/db/database'
import { migrate } from '@server/db/migrations'
import { ApiError } from '@server/http/api-error'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AccountRepository } from './account-repository'
import { type GuardMessages, PasswordGuard, signInMatches } from './password-guard'
import { hashPassword, verifyPassword } from './passwords'

/**
 * The guard on its own, against an in-memory database: the hash comparison is replaced by one the
 * test answers (a hash `h:<password>` matches `<password>`), held open when a test needs checks
 * under way at once. No argon2, no real time: the guard's clock is a number the test moves.
 */
vi.mock('./passwords', () => ({
  hashPassword: vi.fn(async (password: string) => `h:${password}`),
  verifyPassword: vi.fn(async (stored: string, password: string) => stored === `h:${password}`),
}))
const verify = vi.mocked(verifyPassword)
const hash = vi.mocked(hashPassword)

const HASH = 'h:right-one'
const LIMITS = { maxFailures: 3, lockMs: 2 * 3_600_000 + 60_000 }
const MESSAGES: GuardMessages = {
  wrong: (left) => `wrong, ${left} left`,
  lockedNow: (wait) => `locked now for ${wait}`,
  locked: (wait) => `locked for ${wait}`,
}

/** The refusal's message, or 'ok' when the check passed. */
const outcome = (p: Promise<void>): Promise<string> =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof ApiError ? e.message : `unexpected ${String(e)}`),
  )

/** Comparisons held open: each resolves when the test says so, right or wrong. */
function holdComparisons() {
  const held: ((right: boolean) => void)[] = []
  verify.mockImplementation(
    () =>
      new Promise<boolean>((resolve) => {
        held.push(resolve)
      }),
  )
  return {
    get count() {
      return held.length
    },
    answer(index: number, right: boolean) {
      const resolve = held[index]
      if (!resolve) throw new Error(`no comparison ${index}`)
      resolve(right)
    },
  }
}

/** Lets every settled promise's callbacks run (no timers involved). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

describe('PasswordGuard', () => {
  let db: Db
  let now: number
  let guard: PasswordGuard
  let alice: number
  let bob: number

  const check = (password: string, player = alice, g = guard) =>
    outcome(g.check(player, LIMITS, MESSAGES, HASH, password))
  const row = (player = alice, kind = 'pay') =>
    db
      .prepare('SELECT failures, locked_until FROM password_guard WHERE player_id = ? AND kind = ?')
      .get(player, kind)

  beforeEach(() => {
    verify.mockImplementation(async (stored: string, password: string) => stored === `h:${password}`)
    verify.mockClear()
    db = openDatabase(':memory:')
    migrate(db)
    const accounts = new AccountRepository(db, { generation: 0 })
    const player = (phone: string, inviteCode: string) =>
      accounts.create({ phone, nickname: phone, passwordHash: 'x', inviteCode, inviterId: null, at: 1 })
    alice = player('13800000001', 'AAA111')
    bob = player('13800000002', 'BBB222')
    now = 1_000_000
    guard = new PasswordGuard(db, 'pay', () => now)
  })

  afterEach(() => db.close())

  it('accepts the right password and counts nothing', async () => {
    expect(await check('right-one')).toBe('ok')
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(3)
    expect(guard.lockedUntil(alice)).toBeNull()
    expect(row()).toEqual({ failures: 0, locked_until: null })
  })

  it('counts wrong passwords down, and the one that uses the last try starts the lock', async () => {
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(3)
    expect(await check('no-1')).toBe('wrong, 2 left')
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(2)
    expect(await check('no-2')).toBe('wrong, 1 left')
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(1)
    expect(await check('no-3')).toBe('locked now for 2小时1分钟')
    expect(guard.lockedUntil(alice)).toBe(now + LIMITS.lockMs)
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(0)
    expect(row()).toEqual({ failures: 0, locked_until: now + LIMITS.lockMs })
  })

  it('answers every password the same while locked, without comparing it, with the time left', async () => {
    for (const p of ['a', 'b', 'c']) await check(p)
    verify.mockClear()
    now += 60 * 60_000
    expect(await check('right-one')).toBe('locked for 1小时1分钟')
    expect(await check('wrong')).toBe('locked for 1小时1分钟')
    expect(verify).not.toHaveBeenCalled()
    expect(() => guard.assertUnlocked(alice, MESSAGES)).toThrow('locked for 1小时1分钟')
  })

  it('lifts the lock at its end to the millisecond, and starts a fresh count', async () => {
    for (const p of ['a', 'b', 'c']) await check(p)
    const until = now + LIMITS.lockMs
    now = until - 1
    expect(guard.lockedUntil(alice)).toBe(until)
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(0)
    expect(() => guard.assertUnlocked(alice, MESSAGES)).toThrow('locked for 1分钟')
    now = until
    expect(guard.lockedUntil(alice)).toBeNull()
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(3)
    expect(() => guard.assertUnlocked(alice, MESSAGES)).not.toThrow()
    expect(await check('d')).toBe('wrong, 2 left')
    expect(row()).toEqual({ failures: 1, locked_until: null })
    expect(await check('e')).toBe('wrong, 1 left')
    expect(await check('f')).toBe('locked now for 2小时1分钟')
  })

  it('a right password clears the count', async () => {
    await check('a')
    await check('b')
    expect(await check('right-one')).toBe('ok')
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(3)
    expect(row()).toEqual({ failures: 0, locked_until: null })
    expect(await check('c')).toBe('wrong, 2 left')
  })

  it('keeps counts per player and per secret', async () => {
    const login = new PasswordGuard(db, 'login', () => now)
    await check('a')
    await check('b')
    expect(guard.attemptsLeft(bob, LIMITS)).toBe(3)
    expect(login.attemptsLeft(alice, LIMITS)).toBe(3)
    expect(await check('x', alice, login)).toBe('wrong, 2 left')
    expect(await check('x', bob)).toBe('wrong, 2 left')
    expect(await check('c')).toBe('locked now for 2小时1分钟')
    expect(login.lockedUntil(alice)).toBeNull()
    expect(guard.lockedUntil(bob)).toBeNull()
    expect(row(alice, 'login')).toEqual({ failures: 1, locked_until: null })
  })

  it('clear and reset forget the count and the lock', async () => {
    for (const p of ['a', 'b', 'c']) await check(p)
    guard.clear(alice)
    expect(guard.lockedUntil(alice)).toBeNull()
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(3)
    await check('a')
    guard.reset(alice)
    expect(row()).toBeUndefined()
    expect(await check('b')).toBe('wrong, 2 left')
  })

  it('a count left at the limit by a process that stopped locks at the next check, uncompared', async () => {
    db.prepare("INSERT INTO password_guard (player_id, kind, failures) VALUES (?, 'pay', 3)").run(alice)
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(0)
    expect(await check('right-one')).toBe('locked for 2小时1分钟')
    expect(verify).not.toHaveBeenCalled()
    expect(guard.lockedUntil(alice)).toBe(now + LIMITS.lockMs)
    // The lock runs out like any other: it was written, not rolled back with the refusal.
    now += LIMITS.lockMs
    expect(await check('right-one')).toBe('ok')
  })

  it('never reports fewer than zero tries left', () => {
    db.prepare("INSERT INTO password_guard (player_id, kind, failures) VALUES (?, 'pay', 5)").run(alice)
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(0)
  })

  it('counts a comparison that throws as wrong, and passes the error on', async () => {
    verify.mockRejectedValueOnce(new Error('hash broke'))
    expect(await check('right-one')).toBe('unexpected Error: hash broke')
    expect(guard.attemptsLeft(alice, LIMITS)).toBe(2)
    expect(await check('no')).toBe('wrong, 1 left')
  })

  describe('checks under way at once', () => {
    it('lets no more than the limit be compared at once; the next waits for them', async () => {
      const held = holdComparisons()
      const answers = [check('a'), check('b'), check('c'), check('d')]
      await settle()
      expect(held.count).toBe(3)
      expect(row()).toEqual({ failures: 3, locked_until: null })
      held.answer(0, false)
      held.answer(1, false)
      held.answer(2, false)
      expect(await Promise.all(answers)).toEqual([
        'wrong, 0 left',
        'wrong, 0 left',
        'locked now for 2小时1分钟',
        'locked for 2小时1分钟',
      ])
      expect(held.count).toBe(3)
    })

    it('a right one among them frees the tries for the one waiting', async () => {
      const held = holdComparisons()
      const answers = [check('a'), check('right-one'), check('c'), check('right-one')]
      await settle()
      expect(held.count).toBe(3)
      held.answer(1, true)
      await settle()
      // The waiting check was let in and is being compared now.
      expect(held.count).toBe(4)
      held.answer(0, false)
      held.answer(2, false)
      held.answer(3, true)
      // Tries left count the checks still being compared as taken.
      expect(await Promise.all(answers)).toEqual(['wrong, 0 left', 'ok', 'wrong, 0 left', 'ok'])
      expect(guard.lockedUntil(alice)).toBeNull()
      expect(row()).toEqual({ failures: 0, locked_until: null })
    })

    it('a reset by SMS while a wrong password is being compared leaves every try', async () => {
      const held = holdComparisons()
      const answer = check('wrong')
      await settle()
      guard.clear(alice)
      held.answer(0, false)
      expect(await answer).toBe('wrong, 3 left')
      expect(guard.attemptsLeft(alice, LIMITS)).toBe(3)
    })

    it('a right password keeps the checks still being compared counted', async () => {
      const held = holdComparisons()
      const first = check('right-one')
      const second = check('b')
      await settle()
      held.answer(0, true)
      expect(await first).toBe('ok')
      expect(row()).toEqual({ failures: 1, locked_until: null })
      expect(guard.attemptsLeft(alice, LIMITS)).toBe(2)
      held.answer(1, false)
      expect(await second).toBe('wrong, 2 left')
    })
  })

  describe('signInMatches', () => {
    it('compares a known account’s password', async () => {
      expect(await signInMatches('h:pw', 'pw')).toBe(true)
      expect(await signInMatches('h:pw', 'other')).toBe(false)
    })

    it('compares an unknown phone against a dummy hash made once, and says no even to its password', async () => {
      hash.mockClear()
      verify.mockClear()
      expect(await signInMatches(undefined, 'not-a-real-password-0')).toBe(false)
      expect(await signInMatches(undefined, 'x')).toBe(false)
      expect(verify).toHaveBeenCalledTimes(2)
      expect(verify).toHaveBeenNthCalledWith(1, 'h:not-a-real-password-0', 'not-a-real-password-0')
      expect(hash.mock.calls.length).toBeLessThanOrEqual(1)
    })
  })
})
