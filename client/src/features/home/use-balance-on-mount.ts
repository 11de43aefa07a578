import { useFreshBalance } from '@client/lib/use-fresh-balance'

/** A logged-in player sees a fresh balance whenever the page opens or is shown again. */
export function useBalanceOnMount(): void {
  useFreshBalance()
}
