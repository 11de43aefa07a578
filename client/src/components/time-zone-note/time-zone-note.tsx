import { TIME_ZONE_NOTE } from '@client/lib/date-time'
import './time-zone-note.css'

/** Says which zone the page's times are in (all of them: lib/date-time.ts). */
export function TimeZoneNote() {
  return (
    <p className="time-zone-note" data-testid="time-zone-note">
      {TIME_ZONE_NOTE}
    </p>
  )
}
