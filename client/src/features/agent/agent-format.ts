import { HIDDEN_AMOUNT } from '../../components/balance-text/balance-text'
import { formatBalance } from '../../lib/format'

/** Small display helpers of the agent pages: pure, so they are tested without a browser. */

const pad = (n: number) => String(n).padStart(2, '0')

/** A local calendar date as the API's YYYY-MM-DD (the server counts days in local time too). */
export function toDateParam(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** YYYY-MM-DD back to a local Date at midnight; null for anything else. */
export function fromDateParam(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return null
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return toDateParam(date) === text ? date : null
}

/** The range's days, both ends included. */
export function daysInRange(start: Date, end: Date): number {
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())
  return Math.round((utc(end) - utc(start)) / 86_400_000) + 1
}

/** An amount as the server sent it, or the mask when the player hides amounts. */
export function shownAmount(amount: string, hidden: boolean): string {
  return hidden ? HIDDEN_AMOUNT : formatBalance(amount)
}

/** The player id with its middle masked: team lists show whose turnover it is without the whole id. */
export function maskId(id: number): string {
  const text = String(id)
  if (text.length <= 2) return `${text.slice(0, 1)}***`
  return `${text.slice(0, 1)}***${text.slice(-1)}`
}
