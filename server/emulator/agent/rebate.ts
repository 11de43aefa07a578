/**
 * The rebate (backwater) and commission arithmetic: pure functions over integer micro-USDT and
 * rates in basis points, so no float ever touches an amount.
 */
export const BP_SCALE = 10_000

export interface RebateTier {
  /** The day's turnover at which the tier starts, inclusive. */
  readonly minTurnoverMicro: number
  readonly rateBp: number
}

/** Amounts paid out are whole cents (0.01 USDT), so every amount shows exactly with two places. */
export const CENT_MICRO = 10_000

const floorToCent = (micro: number) => micro - (micro % CENT_MICRO)

/** Turnover × rate, rounded down to the cent; exact for any safe-integer turnover. */
export function applyRate(turnoverMicro: number, rateBp: number): number {
  if (!Number.isSafeInteger(turnoverMicro) || turnoverMicro < 0) {
    throw new RangeError(`bad turnover ${turnoverMicro}`)
  }
  if (!Number.isInteger(rateBp) || rateBp < 0 || rateBp > BP_SCALE) throw new RangeError(`bad rate ${rateBp}`)
  return floorToCent(Number((BigInt(turnoverMicro) * BigInt(rateBp)) / BigInt(BP_SCALE)))
}

/**
 * Tiers must start at increasing turnovers with rates that never fall, so that more turnover
 * never earns less: a day paid part-way can then always be topped up, never clawed back.
 */
export function checkTiers(tiers: readonly RebateTier[]): string | null {
  for (let i = 1; i < tiers.length; i++) {
    const prev = tiers[i - 1]
    const cur = tiers[i]
    if (!prev || !cur) continue
    if (cur.minTurnoverMicro <= prev.minTurnoverMicro) return `tier ${i + 1} must start above tier ${i}`
    if (cur.rateBp < prev.rateBp) return `tier ${i + 1} must not pay less than tier ${i}`
  }
  return null
}

/** The tier a day's turnover falls in: 1-based, 0 below the first. */
export function tierOf(turnoverMicro: number, tiers: readonly RebateTier[]): number {
  let found = 0
  tiers.forEach((t, i) => {
    if (turnoverMicro >= t.minTurnoverMicro) found = i + 1
  })
  return found
}

export interface Rebate {
  readonly tier: number
  readonly rateBp: number
  readonly amountMicro: number
}

/** A day's rebate: the tier the whole turnover reaches sets the rate for all of it. */
export function rebateFor(turnoverMicro: number, tiers: readonly RebateTier[]): Rebate {
  const tier = tierOf(turnoverMicro, tiers)
  const rateBp = tier === 0 ? 0 : (tiers[tier - 1]?.rateBp ?? 0)
  return { tier, rateBp, amountMicro: applyRate(turnoverMicro, rateBp) }
}

/** Commission on one day's team turnover: level n's turnover times level n's rate, summed. */
export function commissionFor(
  turnoverByLevelMicro: ReadonlyMap<number, number>,
  levelRatesBp: readonly number[],
): number {
  let total = 0
  levelRatesBp.forEach((rate, i) => {
    total += applyRate(turnoverByLevelMicro.get(i + 1) ?? 0, rate)
  })
  return total
}

/** 50 → "0.50%". */
export function formatRate(rateBp: number): string {
  const whole = Math.floor(rateBp / 100)
  const frac = String(rateBp % 100).padStart(2, '0')
  return `${whole}.${frac}%`
}
