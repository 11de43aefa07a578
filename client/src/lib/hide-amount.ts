import { formatBalance } from './format'
import { useSession } from './session-store'

/**
 * The hide-amount setting (docs/client.md): the eye beside a balance hides every amount of the
 * player's money, on every page, until it is tapped again. Amounts go through shownAmount (or a
 * component that does), never through their own `hidden ? '****' : …`.
 */

/** What a hidden amount shows instead of the figure. */
export const HIDDEN_AMOUNT = '****'

/** An amount as the player sees it: formatBalance, or the mask when amounts are hidden. */
export function shownAmount(amount: string, hidden: boolean): string {
  return hidden ? HIDDEN_AMOUNT : formatBalance(amount)
}

/** Whether amounts are hidden now; the component renders again when the setting changes. */
export const useHideAmount = (): boolean => useSession((s) => s.hideAmount)

/** shownAmount under the setting as it is now. */
export function useShownAmount(): (amount: string) => string {
  const hidden = useHideAmount()
  return (amount) => shownAmount(amount, hidden)
}
