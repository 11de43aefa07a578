import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GAME_CODES } from './config'
import {
  currentRound,
  heightAt,
  isLottery,
  issueOfMinute,
  minuteOfIssue,
  nextRound,
  roundById,
  roundState,
  roundsDrawnIn,
} from './rounds'
import { fixtureConfig } from './test-config'

const cfg = fixtureConfig()
// 2026-11-22 00:00:30 in UTC+8 = 2026-11-21 16:00:30 UTC.
const localMidnight = Date.UTC(2026, 10, 21, 16, 0, 0)

describe('block game rounds', () => {
  it('is one round per block, numbered by the height, sealed 1 s before the block', () => {
    const now = 1_800_000_000_000 + 500 // height 600000000 came 0.5 s ago
    const r = currentRound('qukuai', now, cfg)
    expect(r).toMatchObject({
      roundId: '600000001',
      height: 600_000_001,
      drawAt: 1_800_000_003_000,
      sealAt: 1_800_000_002_000,
    })
    expect(roundState(r, now)).toBe('OPEN')
    expect(roundState(r, 1_800_000_002_000)).toBe('SEALED')
    expect(roundState(r, 1_800_000_003_000)).toBe('DRAWN')
    // At the block's own instant the round is drawn and the next one is current.
    expect(currentRound('qukuai', 1_800_000_003_000, cfg).height).toBe(600_000_002)
  })
})

describe('hash size rounds', () => {
  it('draws on heights divisible by 20, once a minute', () => {
    const r = currentRound('hassize', localMidnight + 30_000, cfg)
    expect(r.height % 20).toBe(0)
    expect(r.drawAt).toBe(localMidnight + 60_000)
    expect(r.roundId).toBe(String(r.height))
    expect(nextRound(r, cfg).height).toBe(r.height + 20)
    expect(roundById('hassize', String(r.height + 1), cfg)).toBeNull()
  })
})

describe('lottery rounds', () => {
  it('numbers issues YYYYMMDD + minute of the local day + 1 and draws at the minute’s end', () => {
    const r = currentRound('kuaisan', localMidnight + 30_000, cfg)
    expect(r.roundId).toBe('202611220001')
    expect(r.drawAt).toBe(localMidnight + 60_000)
    expect(r.height).toBe((localMidnight + 60_000) / 3000)
    expect(r.height % 20).toBe(0)
    expect(r.sealAt).toBe(r.drawAt - 3000)
    // The day's last minute is 1440, drawn at the next local midnight.
    const last = currentRound('saiche', localMidnight - 1, cfg)
    expect(last.roundId).toBe('202611211440')
    expect(last.drawAt).toBe(localMidnight)
    expect(currentRound('shishicai', localMidnight, cfg).roundId).toBe('202611220001')
  })

  it('parses issue numbers back and refuses bad ones', () => {
    expect(minuteOfIssue('202611220001')).toBe(localMidnight)
    expect(minuteOfIssue('202611221441')).toBeNull()
    expect(minuteOfIssue('202602300001')).toBeNull()
    expect(minuteOfIssue('2026112200')).toBeNull()
    expect(roundById('kuaisan', '600000001', cfg)).toBeNull()
  })

  it('round-trips every round through its id, and rounds follow each other without gaps', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...GAME_CODES),
        fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
        (game, now) => {
          const r = currentRound(game, now, cfg)
          expect(r.drawAt).toBeGreaterThan(now)
          expect(roundById(game, r.roundId, cfg)).toEqual(r)
          const n = nextRound(r, cfg)
          expect(n.drawAt).toBeGreaterThan(r.drawAt)
          expect(roundsDrawnIn(game, r.drawAt - 1, n.drawAt, cfg)).toEqual([r, n])
          if (game !== 'qukuai') expect(n.drawAt - r.drawAt).toBe(60_000)
          expect(issueOfMinute(now - (now % 60_000))).toMatch(
            /^\d{8}(000[1-9]|0\d{3}|1[0-3]\d\d|14[0-3]\d|1440)$/,
          )
        },
      ),
    )
  })

  it('lists the rounds drawn in a window, capped to the newest', () => {
    const rs = roundsDrawnIn('qukuai', 0, 30_000, cfg)
    expect(rs.map((r) => r.height)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(roundsDrawnIn('qukuai', 0, 30_000, cfg, 3).map((r) => r.height)).toEqual([8, 9, 10])
    expect(
      roundsDrawnIn('kuaisan', localMidnight, localMidnight + 180_000, cfg).map((r) => r.roundId),
    ).toEqual(['202611220001', '202611220002', '202611220003'])
  })
})

describe('edges', () => {
  it('refuses an issue number with any field out of range', () => {
    for (const issue of [
      '202611220000',
      '202600220001',
      '202613220001',
      '202611000001',
      '202611320001',
      '20261122001a',
    ]) {
      expect(minuteOfIssue(issue), issue).toBeNull()
    }
    expect(minuteOfIssue('202611221440')).toBe(localMidnight + 1439 * 60_000)
    expect(minuteOfIssue('202612310001')).toBe(Date.UTC(2026, 11, 30, 16, 0, 0))
    expect(minuteOfIssue('202601010001')).toBe(Date.UTC(2025, 11, 31, 16, 0, 0))
  })

  it('is open until the instant it seals', () => {
    const r = currentRound('kuaisan', localMidnight + 10_000, cfg)
    expect(roundState(r, r.sealAt - 1)).toBe('OPEN')
    expect(roundState(r, r.sealAt)).toBe('SEALED')
    expect(roundState(r, r.drawAt - 1)).toBe('SEALED')
    expect(roundState(r, r.drawAt)).toBe('DRAWN')
  })

  it('names only its own game’s rounds', () => {
    expect(roundById('qukuai', 'abc', cfg)).toBeNull()
    expect(roundById('qukuai', '1234567890123456', cfg)).toBeNull()
    expect(roundById('qukuai', '123456789012345', cfg)?.height).toBe(123_456_789_012_345)
    expect(roundById('qukuai', '12', cfg)).toEqual({
      game: 'qukuai',
      roundId: '12',
      height: 12,
      drawAt: 36_000,
      sealAt: 35_000,
    })
    expect(roundById('hassize', '40', cfg)).toEqual({
      game: 'hassize',
      roundId: '40',
      height: 40,
      drawAt: 120_000,
      sealAt: 117_000,
    })
    expect(roundById('saiche', '12', cfg)).toBeNull()
  })

  it('lists nothing for an empty or backwards window', () => {
    expect(roundsDrawnIn('qukuai', 30_000, 30_000, cfg)).toEqual([])
    expect(roundsDrawnIn('qukuai', 30_000, 0, cfg)).toEqual([])
    // A draw exactly at the window's end is in it; one exactly at its start is not.
    expect(roundsDrawnIn('qukuai', 3_000, 6_000, cfg).map((r) => r.height)).toEqual([2])
  })

  it('knows the lottery games and the height at a time', () => {
    expect(['qukuai', 'hassize', 'kuaisan', 'shishicai', 'saiche'].map((g) => isLottery(g as never))).toEqual(
      [false, false, true, true, true],
    )
    expect(heightAt(5_999, cfg)).toBe(1)
    expect(heightAt(6_000, cfg)).toBe(2)
  })
})

describe('a draw period other than a minute', () => {
  // Blocks every 3 s, a draw every 40 blocks: every two minutes.
  const slow = { ...cfg, draw_every_blocks: 40 }

  it('hash size draws on every 40th block', () => {
    const r = currentRound('hassize', localMidnight + 60_001, slow)
    expect(r.drawAt).toBe(localMidnight + 120_000)
    expect(r.height % 40).toBe(0)
    expect(nextRound(r, slow).drawAt).toBe(localMidnight + 240_000)
  })

  it('a lottery minute draws at the first draw at or after its end', () => {
    const r = currentRound('kuaisan', localMidnight + 60_001, slow)
    // The day's first minute ends at 00:01 and draws at 00:02, which is still to come.
    expect(r).toMatchObject({ roundId: '202611220001', drawAt: localMidnight + 120_000 })
  })
})

describe('issue numbers', () => {
  it('are exactly twelve digits', () => {
    expect(minuteOfIssue('1202611220001')).toBeNull()
    expect(minuteOfIssue('2026112200011')).toBeNull()
  })
})
