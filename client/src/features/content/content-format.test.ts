import { describe, expect, it } from 'vitest'
import { activityPeriod, allowedThirdParty, classifyRoundTrip, medianMs } from './content-format'

describe('content helpers', () => {
  it('writes activity periods in China Standard Time, whatever the device zone', () => {
    // Midnight on 1 November and 23:59 on 30 November, CST (UTC+8).
    const start = Date.UTC(2026, 9, 31, 16, 0)
    const end = Date.UTC(2026, 10, 30, 15, 59)
    expect(activityPeriod(start, end)).toBe('2026-11-01\u00a000:00 至 2026-11-30\u00a023:59')
    expect(activityPeriod(start, null)).toBe('2026-11-01\u00a000:00 起长期有效')
  })

  it('grades a round trip against the server thresholds, inclusive', () => {
    expect(classifyRoundTrip(100, 100, 300)).toBe('good')
    expect(classifyRoundTrip(101, 100, 300)).toBe('fair')
    expect(classifyRoundTrip(300, 100, 300)).toBe('fair')
    expect(classifyRoundTrip(301, 100, 300)).toBe('poor')
  })

  it('takes the median of the samples', () => {
    expect(medianMs([])).toBeNull()
    expect(medianMs([40, 900, 50])).toBe(50)
    expect(medianMs([10, 30, 20, 1000])).toBe(20)
  })

  it('allows only listed keys whose URL is on the listed origin', () => {
    const list = [
      { key: 'docs', title: '文档', url: 'https://docs.example.com/a', origin: 'https://docs.example.com' },
      { key: 'bad', title: '错配', url: 'https://evil.example.net/', origin: 'https://docs.example.com' },
      { key: 'js', title: '脚本', url: 'javascript:alert(1)', origin: 'null' },
    ]
    expect(allowedThirdParty(list, 'docs')?.title).toBe('文档')
    expect(allowedThirdParty(list, 'other')).toBeNull()
    expect(allowedThirdParty(list, null)).toBeNull()
    expect(allowedThirdParty(list, 'bad')).toBeNull()
    expect(allowedThirdParty(list, 'js')).toBeNull()
  })
})
