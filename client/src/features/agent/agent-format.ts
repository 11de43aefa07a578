/** Small display helpers of the agent pages: pure, so they are tested without a browser. */

/** The range's days, both ends included. */
export function daysInRange(start: Date, end: Date): number {
  const utc = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate())
  return Math.round((utc(end) - utc(start)) / 86_400_000) + 1
}

/** The player id with its middle masked: team lists show whose turnover it is without the whole id. */
export function maskId(id: number): string {
  const text = String(id)
  if (text.length <= 2) return `${text.slice(0, 1)}***`
  return `${text.slice(0, 1)}***${text.slice(-1)}`
}
