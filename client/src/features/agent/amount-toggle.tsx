import { HideAmountToggle } from '../../components/balance-text/balance-text'
import { session, useSession } from '../../lib/session-store'

/** The eye in the nav bar: hides or shows every amount on the page (and the app). */
export function AmountToggle() {
  const hidden = useSession((s) => s.hideAmount)
  return <HideAmountToggle hidden={hidden} onChange={(value) => session.setHideAmount(value)} />
}
