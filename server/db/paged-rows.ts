import type { Db } from './database'

type Value = string | number

/** Which page: 1-based, of `pageSize` rows. */
interface Page {
  readonly page: number
  readonly pageSize: number
}

/** A condition and its value; undefined or null values are left out. */
type Condition = readonly [sql: string, value: Value | null | undefined]

/**
 * One page of a table's rows, newest first, with the total for the same conditions. Table and
 * condition texts are ours (never user input); only the values are bound.
 */
export function pagedRows<Row>(
  db: Db,
  table: string,
  conditions: readonly Condition[],
  page: Page,
): { rows: Row[]; total: number } {
  const used = conditions.filter(([, v]) => v !== undefined && v !== null)
  const clause = used.length ? `WHERE ${used.map(([sql]) => sql).join(' AND ')}` : ''
  const args = used.map(([, v]) => v as Value)
  const total = db
    .prepare<Value[], number>(`SELECT COUNT(*) FROM ${table} ${clause}`)
    .pluck()
    .get(...args)
  const rows = db
    .prepare<Value[], Row>(
      `SELECT * FROM ${table} ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .all(...args, page.pageSize, (page.page - 1) * page.pageSize)
  return { rows, total: total ?? 0 }
}
