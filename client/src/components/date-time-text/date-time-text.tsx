import { formatDateMinute, formatDateTime, formatShortTime } from '@client/lib/date-time'

const FORMAT = { second: formatDateTime, minute: formatDateMinute, short: formatShortTime } as const

/**
 * A time as lib/date-time.ts writes it (北京时间), kept on one line: a date breaks at its hyphens
 * otherwise (docs/client.md#layout).
 */
export function DateTimeText({ ms, precision = 'second' }: { ms: number; precision?: keyof typeof FORMAT }) {
  return <span className="num">{FORMAT[precision](ms)}</span>
}
