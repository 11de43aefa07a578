import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from './test-app'

let t: TestApp
beforeEach(async () => {
  // createTestApp checks answers with checkAnswers.
  t = await createTestApp()
})
afterEach(async () => {
  await t.close()
})

describe('answers checked against the contract', () => {
  it('passes refusals and successes that fit, and throws on an answer outside the contract', async () => {
    const { token } = await t.login()
    expect(
      (await t.app.inject({ url: '/api/api/getBalance?player_id=1', headers: { token } })).statusCode,
    ).toBe(200)
    expect((await t.app.inject({ url: '/api/api/getBalance?player_id=1' })).json().code).toBe(10001)
    // A success whose data does not have the contract's shape.
    await t.app.inject({
      method: 'POST',
      url: '/__emu/faults',
      payload: {
        match: { path: '/api/api/getBalance' },
        action: { type: 'envelope', code: 1, data: { balance: 5 } },
      },
    })
    await expect(
      t.app.inject({ url: '/api/api/getBalance?player_id=1', headers: { token } }),
    ).rejects.toThrow(/getBalance answered outside its contract/)
  })
})
