import { PROTECTION_MSG } from '@server/emulator/protection/protection-guard'
import { describe, expect, it } from 'vitest'
import { readRefusal } from './refusal'

// 2026-11-28 16:00 UTC is 2026-11-29 00:00 in Beijing.
const RESETS = Date.UTC(2026, 10, 28, 16, 0)

describe('readRefusal', () => {
  it("knows the emulator's limit refusals, with their reset time", () => {
    const deposit = PROTECTION_MSG.depositLimit('day', 100_000_000, 80_000_000, RESETS)
    expect(readRefusal(deposit)).toEqual({
      kind: 'deposit-limit',
      message: deposit,
      until: '2026-11-29 00:00',
    })
    const loss = PROTECTION_MSG.lossLimit('week', 50_000_000, 50_000_000, RESETS)
    expect(readRefusal(loss)).toEqual({ kind: 'loss-limit', message: loss, until: '2026-11-29 00:00' })
  })

  it('knows a time-out or self-exclusion, at login and at a bet, with its end', () => {
    for (const kind of ['timeout', 'self_exclusion'] as const) {
      const row = { player_id: 1, kind, period: '24h', started_at: 0, ends_at: RESETS }
      for (const message of [PROTECTION_MSG.excludedLogin(row), PROTECTION_MSG.excludedBet(row)]) {
        expect(readRefusal(message)).toEqual({ kind: 'exclusion', message, until: '2026-11-29 00:00' })
      }
    }
  })

  it('leaves every other failure to the toast', () => {
    for (const message of [
      PROTECTION_MSG.wrongPassword,
      PROTECTION_MSG.notExcluded,
      '余额不足',
      '请求失败',
    ]) {
      expect(readRefusal(message)).toBeNull()
    }
  })
})

describe('readRefusal, words on their own', () => {
  it('needs both the limit and the reset in one message', () => {
    expect(readRefusal('登录密码已重置')).toBeNull()
    expect(readRefusal('亏损限额')).toBeNull()
    expect(readRefusal('充值限额')).toBeNull()
    expect(readRefusal('暂停游戏')).toBeNull()
  })
})
