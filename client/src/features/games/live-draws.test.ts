import { describe, expect, it } from 'vitest'
import { type Draw, withDraw } from './live-draws'

const draw = (round_id: string, draw_at: number): Draw => ({
  game: 'qukuai',
  round_id,
  height: Number(round_id),
  block_hash: 'ab',
  draw_at,
  numbers: [1, 2, 3],
  labels: {},
})

describe('withDraw', () => {
  const page = { list: [draw('2', 20), draw('1', 10)], total: 2, page: 1, page_size: 2, has_more: false }

  it('puts a new draw in front and keeps the page to its size', () => {
    const next = withDraw(page, draw('3', 30), 2)
    expect(next?.list.map((d) => d.round_id)).toEqual(['3', '2'])
    expect(next?.total).toBe(3)
  })

  it('leaves the page as it is for a draw it has, an older one, or before it has loaded', () => {
    expect(withDraw(page, draw('2', 20), 2)).toBe(page)
    expect(withDraw(page, draw('0', 5), 2)).toBe(page)
    expect(withDraw(undefined, draw('3', 30), 2)).toBeUndefined()
  })
})
