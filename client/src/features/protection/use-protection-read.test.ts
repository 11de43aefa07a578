import { ApiError } from '@client/lib/http'
import { describe, expect, it } from 'vitest'
import { isMissing } from './use-protection-read'

describe('isMissing', () => {
  it('hides the section when the server does not answer the endpoint', () => {
    expect(isMissing(new ApiError('http', '请求失败（HTTP 404）', { status: 404 }))).toBe(true)
    expect(isMissing(new ApiError('business', '接口不存在', { code: 40400 }))).toBe(true)
    expect(isMissing(new ApiError('invalid-response', '请求失败（响应格式错误）'))).toBe(true)
  })

  it('keeps it (with a retry) when the call did not get through', () => {
    expect(isMissing(new ApiError('network', '网络连接错误，请检查网络设置'))).toBe(false)
    expect(isMissing(new ApiError('timeout', '请求超时，请稍后再试'))).toBe(false)
  })
})
