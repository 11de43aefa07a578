import { oppositeOf } from '@shared/games/bet-types'
import { oddsToMilli } from '@shared/games/config'
import { payoutMicro } from '@shared/games/outcome'
import { formatMicro, toMicro } from '@shared/money'

/**
 * The bet slip: chosen bet types and one stake per bet, all in micro-units so ½ and ×2 never
 * touch floating point. Limits come from the game list (min/max stake) and the balance.
 */

export interface SlipState {
  selected: readonly string[]
  /** Stake per bet type, micro-USDT. */
  stakeMicro: number
}

export type SlipAction =
  | { type: 'toggle'; betType: string }
  | { type: 'chip'; amount: string }
  | { type: 'set'; amount: string }
  | { type: 'half' }
  | { type: 'double' }
  | { type: 'max'; balance: string | null; maxStake: string }
  | { type: 'clear' }

export const CHIPS = ['1', '5', '10', '50', '100', '500'] as const
export const QUICK_AMOUNTS = ['10', '20', '50', '100'] as const

export const emptySlip: SlipState = { selected: [], stakeMicro: 0 }

const safeMicro = (amount: string): number => {
  try {
    return Math.max(0, toMicro(amount))
  } catch {
    return 0
  }
}

/** A stake is whole cents: the server takes at most 2 places, and halving keeps them. */
export const STAKE_PLACES = 2
const CENT = 10_000
const toCents = (micro: number) => Math.floor(micro / CENT) * CENT

/** The stake a typed amount sets: whole cents, and a point still waiting for its decimals ("2.") is 2. */
export const stakeMicroOf = (typed: string): number => toCents(safeMicro(typed.trim().replace(/\.$/, '')))

/**
 * What the stake field shows: what the player typed while it still is the stake, so "2." and "2.5"
 * stay as typed on the way to 2.50; after a chip, ½, ×2, 最大 or 清空 changed the stake, the stake.
 */
export const stakeFieldText = (state: SlipState, typed: string): string =>
  stakeMicroOf(typed) === state.stakeMicro ? typed : state.stakeMicro > 0 ? stakeText(state) : ''

export function slipReducer(state: SlipState, action: SlipAction): SlipState {
  switch (action.type) {
    case 'toggle': {
      if (state.selected.includes(action.betType))
        return { ...state, selected: state.selected.filter((t) => t !== action.betType) }
      // Both sides of one pair in one round are refused: the other side cannot be added.
      if (blockedBy(action.betType, state.selected) !== null) return state
      return { ...state, selected: [...state.selected, action.betType] }
    }
    case 'chip':
      return { ...state, stakeMicro: state.stakeMicro + safeMicro(action.amount) }
    case 'set':
      return { ...state, stakeMicro: stakeMicroOf(action.amount) }
    case 'half':
      return { ...state, stakeMicro: toCents(Math.floor(state.stakeMicro / 2)) }
    case 'double':
      return { ...state, stakeMicro: state.stakeMicro * 2 }
    case 'max': {
      // The whole balance spread over the chosen bets, capped by the game's limit per bet; nothing
      // while the balance is not known yet.
      if (action.balance === null) return state
      const count = Math.max(1, state.selected.length)
      const perBet = toCents(Math.floor(safeMicro(action.balance) / count))
      return { ...state, stakeMicro: Math.min(perBet, toCents(safeMicro(action.maxStake))) }
    }
    case 'clear':
      return emptySlip
  }
}

/**
 * The picked (or already placed) bet type that rules this one out, or null: 大 rules out 小,
 * 单 双, 庄 闲, 龙 虎, each within its own ball or position.
 */
export function blockedBy(betType: string, taken: readonly string[]): string | null {
  const other = oppositeOf(betType)
  return other !== null && taken.includes(other) ? other : null
}

/** Stake × odds, rounded down to the micro-unit as the server settles it. */
export function potentialPayout(stake: string, odds: string): string {
  return formatMicro(payoutMicro('won', toMicro(stake), oddsToMilli(odds)), 2)
}

export interface SlipCheck {
  ok: boolean
  message?: string
}

/** What stops the slip from being sent, in the words the player sees. */
export function checkSlip(
  state: SlipState,
  limits: { minStake: string; maxStake: string; balance: string | null },
): SlipCheck {
  if (state.selected.length === 0) return { ok: false, message: '请选择投注项' }
  if (state.stakeMicro <= 0) return { ok: false, message: '请输入投注金额' }
  if (state.stakeMicro < toMicro(limits.minStake))
    return { ok: false, message: `单注最低 ${limits.minStake}` }
  if (state.stakeMicro > toMicro(limits.maxStake))
    return { ok: false, message: `单注最高 ${limits.maxStake}` }
  if (limits.balance === null) return { ok: false, message: '余额加载中，请稍候' }
  if (state.stakeMicro * state.selected.length > safeMicro(limits.balance))
    return { ok: false, message: '余额不足' }
  return { ok: true }
}

export const stakeText = (state: SlipState): string => formatMicro(state.stakeMicro, 2)
export const totalText = (state: SlipState): string =>
  formatMicro(state.stakeMicro * state.selected.length, 2)
