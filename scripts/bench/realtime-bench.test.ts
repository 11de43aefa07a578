import { describe, expect, it } from 'vitest'
import { slope, tapQuantile } from './game-soak'
import { metricSum, quantile } from './proc-stats'
import { type DrawSeen, SseDrawReader } from './sse-draws'

describe('SseDrawReader', () => {
  const draw = (game: string, round: string, drawAt: number) =>
    `id: r-7\nevent: draw\ndata: {"game":"${game}","round_id":"${round}","height":12,"draw_at":${drawAt},"numbers":[1,2,3]}\n\n`

  it('reads each draw across chunk boundaries, with the arrival time of the chunk that completed it', () => {
    const seen: DrawSeen[] = []
    const reader = new SseDrawReader((d) => seen.push(d))
    const text = draw('qukuai', '598611176', 1_000) + draw('kuaisan', '202611280601', 2_000)
    const cut = text.indexOf('draw_at') + 3
    expect(reader.push(text.slice(0, cut), 10)).toBe(0)
    expect(reader.push(text.slice(cut), 20)).toBe(2)
    expect(seen).toEqual([
      { game: 'qukuai', round: '598611176', drawAt: 1_000, at: 20 },
      { game: 'kuaisan', round: '202611280601', drawAt: 2_000, at: 20 },
    ])
  })

  it('counts other events but reports only draws, and skips heartbeat comments', () => {
    const seen: DrawSeen[] = []
    const reader = new SseDrawReader((d) => seen.push(d))
    const round = 'id: r-8\nevent: round\ndata: {"game":"qukuai","round_id":"5","draw_at":9}\n\n'
    expect(reader.push(`: heartbeat\n\n${round}`, 1)).toBe(1)
    expect(seen).toEqual([])
  })
})

describe('quantile', () => {
  it('takes the nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i)
    expect(quantile(samples, 0.5)).toBe(50)
    expect(quantile(samples, 0.99)).toBe(99)
    expect(quantile([7], 0.99)).toBe(7)
    expect(quantile([], 0.5)).toBeNaN()
  })
})

describe('metricSum', () => {
  const text = [
    '# HELP stream_connections Push channel streams open in this process',
    'stream_connections 42',
    'stream_connections_total 1',
    'http_request_duration_seconds_count{route="/a",method="GET",status_class="2xx"} 3',
    'http_request_duration_seconds_count{route="/b",method="GET",status_class="2xx"} 4',
  ].join('\n')

  it('adds every label set of the named metric and nothing of a longer name', () => {
    expect(metricSum(text, 'stream_connections')).toBe(42)
    expect(metricSum(text, 'http_request_duration_seconds_count')).toBe(7)
    expect(metricSum(text, 'upstream_reader_calls_total')).toBeNull()
  })
})

describe('the soak report', () => {
  it('counts taps Chromium did not report as under its 16 ms threshold', () => {
    expect(tapQuantile([40], 4, 0.75)).toEqual({ ms: 16, under16: true })
    expect(tapQuantile([40, 50], 3, 0.75)).toEqual({ ms: 50, under16: false })
    expect(tapQuantile([], 0, 0.75).ms).toBeNaN()
  })

  it('fits the growth per hour', () => {
    expect(
      slope([
        { x: 0, y: 100 },
        { x: 1, y: 110 },
        { x: 2, y: 120 },
      ]),
    ).toBeCloseTo(10)
    expect(slope([{ x: 1, y: 5 }])).toBe(0)
  })
})
