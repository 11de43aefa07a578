import { ApiError } from '@client/lib/http'
import { SubmissionKey } from '@client/lib/submission-key'
import { describe, expect, it } from 'vitest'

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

  it('keeps the key while the server says the first call is still in progress (HTTP 409)', () => {
    const key = keys()
    key.keyFor({ amount: '10' })
    key.settle(new ApiError('business', '相同的请求正在处理中，请稍后查看结果', { status: 409, code: 40900 }))
    expect(key.keyFor({ amount: '10' })).toBe('k1')
  })

  it('send: a refused attempt never blocks the corrected one, nor the same one tried again', async () => {
    const key = keys()
    const sent: string[] = []
    const refuse = (k: string) => {
      sent.push(k)
      return Promise.reject(new ApiError('business', '余额不足'))
    }
    const lose = (k: string) => {
      sent.push(k)
      return Promise.reject(new ApiError('timeout', '请求超时'))
    }
    const accept = (k: string) => {
      sent.push(k)
      return Promise.resolve('ok')
    }
    await expect(key.send({ amount: '500' }, refuse)).rejects.toThrow('余额不足')
    await expect(key.send({ amount: '500' }, refuse)).rejects.toThrow('余额不足')
    await expect(key.send({ amount: '50' }, lose)).rejects.toThrow('请求超时')
    await expect(key.send({ amount: '50' }, accept)).resolves.toBe('ok')
    await expect(key.send({ amount: '50' }, accept)).resolves.toBe('ok')
    // Two attempts refused, each its own key; the lost one retried with its key; then a new attempt.
    expect(sent).toEqual(['k1', 'k2', 'k3', 'k3', 'k4'])
  })
})
