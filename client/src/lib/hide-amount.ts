import { mask } from '@shared/mask'
import { formatBalance } from './format'
import { useSession } from './session-store'

/**
 * The hide-amount setting (docs/client.md): the eye beside a balance hides every amount of the
 * player's money, on every page, until it is tapped again. Amounts go through shownAmount (or a
 * component that does), never through their own `hidden ? '****' : …`.
 */

/**
 * How many stars stand for a hidden amount: the whole figure goes, so the mask (shared/mask.ts `mask`,
 * nothing kept at either end) is a fixed four stars whatever the amount's length.
 */
const HIDDEN_STARS = 4

/** An amount as the player sees it: formatBalance, or the mask when amounts are hidden. */
export function shownAmount(amount: string, hidden: boolean): string {
  return hidden
    ? mask(amount || '0', { keepHead: 0, keepTail: 0, stars: HIDDEN_STARS })
    : formatBalance(amount)
}

/** What a hidden amount shows instead of the figure. */
export const HIDDEN_AMOUNT = shownAmount('0', true)

/** Whether amounts are hidden now; the component renders again when the setting changes. */
export const useHideAmount = (): boolean => useSession((s) => s.hideAmount)

/** shownAmount under the setting as it is now. */
export function useShownAmount(): (amount: string) => string {
  const hidden = useHideAmount()
  return (amount) => shownAmount(amount, hidden)
}

/**
 * Free text that may carry amounts (a fund-flow memo written by the server: `首充赠送：充值 100.00 USDT
 * 赠送 10.00 USDT`): while amounts are hidden, every decimal figure, and every whole one followed
 * by a currency, becomes the mask. A rate in the text goes too: hiding one figure too many is safe.
 */
export function shownText(text: string, hidden: boolean): string {
  if (!hidden) return text
  return text.replace(/[+-]?\d[\d,]*(?:\.\d+|(?=\s*(?:USDT|TRX)\b))/g, HIDDEN_AMOUNT)
}

/** shownText under the setting as it is now. */
export function useShownText(): (text: string) => string {
  const hidden = useHideAmount()
  return (text) => shownText(text, hidden)
}
