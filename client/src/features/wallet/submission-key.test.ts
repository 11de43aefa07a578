import { ApiError } from '@client/lib/http'
import { describe, expect, it } from 'vitest'
import { SubmissionKey } from './submission-key'

function keys() {
  let n = 0
  return new SubmissionKey(() => `k${++n}`)
}

describe('SubmissionKey', () => {
  it('reuses the key for the same body until the submission has an answer', () => {
    const key = keys()
    expect(key.keyFor({ amount: '10' })).toBe('k1')
    expect(key.keyFor({ amount: '10' })).toBe('k1')
    key.settle()
    expect(key.keyFor({ amount: '10' })).toBe('k2')
  })

  it('takes a new key when the body changes', () => {
    const key = keys()
    expect(key.keyFor({ amount: '10' })).toBe('k1')
    expect(key.keyFor({ amount: '11' })).toBe('k2')
  })

  it('keeps the key after an answer that never arrived, drops it after a refusal', () => {
    const key = keys()
    key.keyFor({ amount: '10' })
    key.settle(new ApiError('timeout', 'timeout'))
    expect(key.keyFor({ amount: '10' })).toBe('k1')
    key.settle(new ApiError('network', 'network'))
    expect(key.keyFor({ amount: '10' })).toBe('k1')
    key.settle(new ApiError('business', '支付密码错误'))
    expect(key.keyFor({ amount: '10' })).toBe('k2')
  })
})
