import { describe, expect, it } from 'vitest'
import { toJSONSchema } from 'zod'
import { noteField } from './fields'

describe('noteField', () => {
  const required = noteField({ max: 3, empty: '请填写', tooLong: '太长' })
  const optional = noteField({ max: 3, tooLong: '太长' })

  it('refuses a required note of nothing but spaces, whatever kind of space', () => {
    for (const v of ['', ' ', '\u000b', '\u3000\t\ufeff']) {
      expect(required.safeParse(v).error?.issues[0]?.message, JSON.stringify(v)).toBe('请填写')
    }
    expect(optional.parse(' \u000b ')).toBe('')
  })

  it('counts characters as the published document does (code points, after trimming)', () => {
    expect(required.parse(' 😀😀😀 ')).toBe('😀😀😀')
    expect(required.safeParse('😀😀😀😀').error?.issues[0]?.message).toBe('太长')
    expect(toJSONSchema(required, { io: 'input' })).toMatchObject({
      minLength: 1,
      maxLength: 3,
      pattern: '\\S',
    })
    expect(new RegExp(String(toJSONSchema(required, { io: 'input' }).pattern)).test('\u000b')).toBe(false)
  })
})
