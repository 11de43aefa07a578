/**
 * The app's one way to show a date or time. The product's business day is China Standard Time
 * (UTC+8): the server counts daily limits, date filters and rounds in it. So every time is shown
 * in CST whatever the device's zone, and pages that show times say so with TIME_ZONE_NOTE. The text
 * itself is shared/business-day.ts `formatCst`, the one CST format of the client and the server.
 */

import { dayOf, formatCst } from '@shared/business-day'

/** What the shown times are, in words the player knows. */
export const TIME_ZONE_LABEL = '北京时间'
export const TIME_ZONE_NOTE = `时间均为${TIME_ZONE_LABEL}（UTC+8）`

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * Between a date and its time: a no-break space, so that a date and time never break across lines
 * wherever they are shown (docs/client.md#layout). A date's hyphens and a time's colons are no
 * break opportunities between digits anyway.
 */
export const DATE_TIME_GAP = '\u00a0'

/** Unix milliseconds as `YYYY-MM-DD HH:mm:ss` (CST), the gap a no-break space. */
export const formatDateTime = (ms: number): string => formatCst(ms, 'second', DATE_TIME_GAP)

/** Unix milliseconds as `YYYY-MM-DD HH:mm` (CST), where seconds say nothing (activity periods, limits). */
export const formatDateMinute = (ms: number): string => formatCst(ms, 'minute', DATE_TIME_GAP)

/** Unix milliseconds as `MM-DD HH:mm` (CST), for notices and short lists. */
export const formatShortTime = (ms: number): string => formatDateMinute(ms).slice(5)

/** The CST date of an instant as the API's YYYY-MM-DD: the business day it falls on. */
export const cstDate = (ms: number): string => dayOf(ms)

/**
 * A calendar day the player picked as the API's YYYY-MM-DD. Date pickers hand back a local Date at
 * midnight of the day on screen; that day is sent as it is, and the server reads it as a CST day.
 */
export function pickedDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** The API's YYYY-MM-DD back to the local Date at midnight a picker shows; null for anything else. */
export function parsePickedDate(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return null
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return pickedDate(date) === text ? date : null
}
