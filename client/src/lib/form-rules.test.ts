import { newPasswordField, PASSWORD_MSG } from '@shared/contract/fields'
import { describe, expect, it } from 'vitest'
import { PASSWORD_MISMATCH, PAY_PASSWORD_MISMATCH, repeatProblem, sameAsRule, schemaRule } from './form-rules'

const check = (value: string) => schemaRule(newPasswordField).validator?.(undefined, value)

describe('the new-password form rule', () => {
  it('words its refusals as the server does', async () => {
    await expect(check('qzx-7ab')).rejects.toThrow(PASSWORD_MSG.tooShort)
    await expect(check('z'.repeat(129))).rejects.toThrow(PASSWORD_MSG.tooLong)
  })

  it('has no composition rules and counts characters, not UTF-16 units', async () => {
    await expect(check('lumenfox')).resolves.toBeUndefined()
    await expect(check('春眠不觉晓处闻啼')).resolves.toBeUndefined()
    await expect(check('🐉'.repeat(128))).resolves.toBeUndefined()
    await expect(check('🐉'.repeat(7))).rejects.toThrow(PASSWORD_MSG.tooShort)
  })
})

describe('repeatProblem', () => {
  it('is nothing when the repeat is exactly the original, and the mismatch otherwise', () => {
    expect(repeatProblem('abc12345', 'abc12345')).toBeNull()
    expect(repeatProblem('abc12345', 'abc1234')).toBe(PASSWORD_MISMATCH)
    expect(repeatProblem('abc12345 ', 'abc12345')).toBe(PASSWORD_MISMATCH)
    expect(repeatProblem('', '123456', PAY_PASSWORD_MISMATCH)).toBe('两次输入的支付密码不一致')
    expect(repeatProblem('123456', 123456)).toBe(PASSWORD_MISMATCH)
  })
})

describe('sameAsRule', () => {
  const form = (values: Record<string, unknown>) => ({ getFieldValue: (name: string) => values[name] })
  it('takes the same value and refuses another, with its message', async () => {
    await expect(
      sameAsRule('password')(form({ password: 'abc' })).validator(null, 'abc'),
    ).resolves.toBeUndefined()
    await expect(sameAsRule('password')(form({ password: 'abc' })).validator(null, 'abd')).rejects.toThrow(
      '两次输入的密码不一致',
    )
    await expect(sameAsRule('pay', '不一致')(form({ pay: '1' })).validator(null, '2')).rejects.toThrow(
      '不一致',
    )
  })
})

it('sameAsRule leaves an empty repeat to the required rule', async () => {
  const form = { getFieldValue: () => 'abc' }
  await expect(sameAsRule('password')(form).validator(null, '')).resolves.toBeUndefined()
  await expect(sameAsRule('password')(form).validator(null, undefined)).resolves.toBeUndefined()
})
