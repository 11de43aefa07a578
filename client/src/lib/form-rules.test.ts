import { newPasswordField, PASSWORD_MSG } from '@shared/contract/fields'
import { describe, expect, it } from 'vitest'
import { schemaRule } from './form-rules'

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
