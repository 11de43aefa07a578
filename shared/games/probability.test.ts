import { describe, expect, it } from 'vitest'
import { betTypesOf } from './bet-types'
import { GAME_CODES, gamesConfigSchema } from './config'
import { edgeTable } from './probability'
import { fixtureConfig } from './test-config'

const cfg = fixtureConfig()

/** Win probabilities worked out by hand from the rules (game-rules §4), independent of the code. */
const EXPECTED_WIN: Record<string, number> = {
  'qukuai.big': 0.5,
  'qukuai.odd': 0.5,
  // one digit (10/16) and one letter (6/16), either order
  'qukuai.lucky': (2 * 10 * 6) / 256,
  'qukuai.unlucky': 1 - (2 * 10 * 6) / 256,
  'hassize.sum_big': 0.5,
  'kuaisan.big': 0.5,
  'kuaisan.sum_3': 1 / 216,
  'kuaisan.sum_10': 27 / 216,
  'kuaisan.any_triple': 6 / 216,
  'kuaisan.triple_4': 1 / 216,
  'kuaisan.any_straight': 24 / 216,
  'kuaisan.pair_2': 15 / 216,
  'kuaisan.two_1_6': 30 / 216,
  'shishicai.b3_big': 0.5,
  'shishicai.b2_d7': 0.1,
  'shishicai.sum_big': 0.5,
  'shishicai.dragon': 0.45,
  'shishicai.tie': 0.1,
  'saiche.p4_big': 0.5,
  'saiche.p7_c3': 0.1,
  'saiche.p2_dragon': 0.5,
  'saiche.top2_big': 40 / 90,
  'saiche.top2_odd': 50 / 90,
}

describe('odds tables against their computed win probability (game-rules §8)', () => {
  it('validates the shipped fixture', () => {
    expect(gamesConfigSchema.safeParse(cfg).success).toBe(true)
    expect(
      gamesConfigSchema.safeParse({
        ...cfg,
        games: { ...cfg.games, qukuai: { ...cfg.games.qukuai, odds: {} } },
      }).success,
    ).toBe(false)
  })

  it('matches hand-worked probabilities', () => {
    for (const [key, p] of Object.entries(EXPECTED_WIN)) {
      const [game = '', type = ''] = key.split('.')
      const row = edgeTable(game as (typeof GAME_CODES)[number], cfg).find((r) => r.type === type)
      expect(row?.win, key).toBeCloseTo(p, 12)
    }
  })

  it('refunds banker and player exactly when the points tie', () => {
    const q = new Map(edgeTable('qukuai', cfg).map((r) => [r.type, r]))
    const tie = q.get('tie')?.win ?? 0
    // point values: 0 with 7/16 per character pair sum … computed by convolution here
    const v = Array(10).fill(1 / 16)
    v[0] = 7 / 16
    const point = Array(10).fill(0)
    for (let a = 0; a < 10; a++) for (let b = 0; b < 10; b++) point[(a + b) % 10] += v[a] * v[b]
    const pTie = point.reduce((s: number, x: number) => s + x * x, 0)
    expect(tie).toBeCloseTo(pTie, 12)
    expect(q.get('banker')?.draw).toBeCloseTo(pTie, 12)
    expect(q.get('banker')?.win).toBeCloseTo((1 - pTie) / 2, 12)
  })

  it('prints each game’s house edge and keeps every edge within the table’s stated bounds', () => {
    const lines: string[] = []
    for (const game of GAME_CODES) {
      const rows = edgeTable(game, cfg)
      expect(rows.map((r) => r.type)).toEqual(betTypesOf(game, cfg).map((b) => b.type))
      // One line per distinct (group, odds, chance) so the table stays readable.
      const seen = new Set<string>()
      for (const r of rows) {
        const k = `${r.group}|${r.oddsMilli}|${r.win.toFixed(6)}|${r.draw.toFixed(6)}`
        if (seen.has(k)) continue
        seen.add(k)
        lines.push(
          `${game.padEnd(9)} ${r.type.padEnd(13)} odds ${(r.oddsMilli / 1000).toString().padEnd(6)} p(win) ${r.win.toFixed(5)} p(refund) ${r.draw.toFixed(5)} edge ${(r.houseEdge * 100).toFixed(2)}%`,
        )
        // Edges the rules' odds imply: between −7% (unlucky at 1.98 favours the player) and 13%.
        expect(r.houseEdge, `${game}.${r.type}`).toBeGreaterThan(-0.07)
        expect(r.houseEdge, `${game}.${r.type}`).toBeLessThan(0.13)
      }
    }
    console.log(`house edge by bet type\n${lines.join('\n')}`)
    const big = edgeTable('qukuai', cfg).find((r) => r.type === 'big')
    expect(big?.houseEdge).toBeCloseTo(0.025, 12)
    const unlucky = edgeTable('qukuai', cfg).find((r) => r.type === 'unlucky')
    expect(unlucky?.houseEdge).toBeCloseTo(1 - 1.98 * (136 / 256), 12)
  })
})
