// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { NumText } from './num-text'

afterEach(cleanup)

const kept = (text: string) =>
  [...render(<NumText text={text} />).container.querySelectorAll('.num')].map((el) => el.textContent)

describe('NumText', () => {
  it('keeps each figure, date, time and amount with its unit on one line, and the words as they are', () => {
    const text = '超出每日充值限额 100.00 USDT：最多还可充值 20 USDT，限额于 2026-11-29 00:00（北京时间）重置'
    const { container } = render(<NumText text={text} />)
    expect(container.textContent).toBe(text)
    expect(kept(text)).toEqual(['100.00 USDT', '20 USDT', '2026-11-29 00:00'])
  })

  it('knows the app’s own date-time gap, short times, durations and percentages', () => {
    expect(kept('更新于 2026-11-28\u00a005:09:58 · 11-22\u00a023:30 · 15 分钟 · 1.00%')).toEqual([
      '2026-11-28\u00a005:09:58',
      '11-22\u00a023:30',
      '15 分钟',
      '1.00%',
    ])
  })
})
