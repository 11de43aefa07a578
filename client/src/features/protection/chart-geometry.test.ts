import { describe, expect, it } from 'vitest'
import { barGeometry } from './chart-geometry'

describe('barGeometry', () => {
  it('puts zero where the largest win and loss share the height', () => {
    const g = barGeometry([30, -10, 0], 300, 100, 0)
    expect(g.zeroY).toBe(75)
    expect(g.bars[0]).toEqual({ x: 0, y: 0, width: 100, height: 75, positive: true })
    expect(g.bars[1]).toEqual({ x: 100, y: 75, width: 100, height: 25, positive: false })
    expect(g.bars[2]).toMatchObject({ height: 0, positive: true })
  })

  it('draws only losses below a zero line at the top', () => {
    const g = barGeometry([-5, -20], 200, 80, 0.5)
    expect(g.zeroY).toBe(0)
    expect(g.bars[1]).toEqual({ x: 125, y: 0, width: 50, height: 80, positive: false })
    expect(g.bars[0]?.height).toBe(20)
  })

  it('gives flat bars when nothing happened, and nothing for no days', () => {
    expect(barGeometry([0, 0], 100, 50).bars.every((b) => b.height === 0)).toBe(true)
    expect(barGeometry([], 100, 50).bars).toEqual([])
  })
})
