import { userInfoSchema } from '@shared/contract/account'
import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { type LoginData, readLoginData, readUserInfo } from './storage'

/** What loginData held when it was checked with a schema (kept here as the reader's reference). */
const loginDataSchema = z.object({
  player_id: z.number().int().positive(),
  expires_at: z.number().int().optional(),
})

const loose = fc.oneof(
  fc.integer(),
  fc.integer({ min: -3, max: 3 }),
  fc.double(),
  fc.constant(2 ** 60),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
)

/** Objects with some, all or none of the fields, of the right type or not, and keys of their own. */
const objectWith = (fields: Record<string, fc.Arbitrary<unknown>>) =>
  fc.oneof(
    fc.jsonValue(),
    fc.record(Object.fromEntries(Object.entries(fields).map(([key, good]) => [key, fc.oneof(good, loose)])), {
      requiredKeys: [],
    }),
    fc.tuple(fc.record(fields), fc.dictionary(fc.string(), fc.jsonValue())).map(([a, b]) => ({ ...b, ...a })),
  )

describe('stored values are read as their schemas parse them', () => {
  it('loginData', () => {
    const value = objectWith({ player_id: fc.integer({ min: 1 }), expires_at: fc.integer() })
    fc.assert(
      fc.property(value, (v) => {
        const parsed = loginDataSchema.safeParse(v)
        expect(readLoginData(v)).toStrictEqual(parsed.success ? parsed.data : null)
      }),
      { numRuns: 2000 },
    )
  })

  it('userInfo', () => {
    const value = objectWith({
      player_id: fc.integer(),
      nickname: fc.string(),
      phone: fc.string(),
      invite_code: fc.string(),
      has_pay_password: fc.boolean(),
      vip_level: fc.integer(),
      created_at: fc.integer(),
    })
    fc.assert(
      fc.property(value, (v) => {
        const parsed = userInfoSchema.safeParse(v)
        expect(readUserInfo(v)).toStrictEqual(parsed.success ? parsed.data : null)
      }),
      { numRuns: 2000 },
    )
  })

  it('the types agree', () => {
    expectTypeOf<LoginData>().toEqualTypeOf<z.infer<typeof loginDataSchema>>()
  })
})
