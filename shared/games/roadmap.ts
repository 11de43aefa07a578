/** The two result grids (docs/game-rules.md, "Result grids"). Grids are arrays of columns, each a top-to-bottom array of cells. */

export type Column<T> = (T | null)[]

/**
 * Bead plate: every result, ties included, takes the next cell top to bottom, then the next column
 * to the right. When full, the oldest whole column drops off so rows stay aligned.
 */
export function beadPlate(labels: readonly string[], rows = 6, cols = 11): Column<string>[] {
  const used = Math.ceil(labels.length / rows)
  const drop = Math.max(0, used - cols)
  const shown = labels.slice(drop * rows)
  const out: Column<string>[] = Array.from({ length: cols }, () => Array<string | null>(rows).fill(null))
  shown.forEach((label, i) => {
    const col = out[Math.floor(i / rows)]
    if (col) col[i % rows] = label
  })
  return out
}

export interface RoadCell {
  readonly label: string
  /** Ties counted on this cell. */
  readonly ties: number
}

export interface BigRoad {
  /** `cols` columns of `rows` cells: the newest columns, so the newest stays in view. */
  readonly columns: Column<RoadCell>[]
  /** Index of the first shown column in the whole road (how many dropped off on the left). */
  readonly offset: number
  /** Columns the whole road spans. */
  readonly width: number
  /** Ties seen before any other result (held until the first cell exists). */
  readonly heldTies: number
}

/**
 * Big road: the first non-tie result goes top left. The same label again steps down one cell; at
 * the bottom row, or when the cell below is taken, it steps right along the same row instead and keeps going
 * right for the rest of the run (the dragon tail). A new label starts a new column at the top, just right of the column where the
 * previous run started. A tie takes no cell: it adds to the last cell's count (ties before the
 * first result are added to the first cell).
 */
export function bigRoad(
  labels: readonly string[],
  opts: { tie?: string; rows?: number; cols?: number } = {},
): BigRoad {
  const { tie = 'tie', rows = 6, cols = 22 } = opts
  const cells = new Map<string, { label: string; ties: number }>()
  const key = (c: number, r: number) => `${c}:${r}`
  let held = 0
  const at: { last: { c: number; r: number; label: string } | null } = { last: null }
  let runStart = -1
  let tailing = false
  let width = 0

  const place = (c: number, r: number, label: string) => {
    cells.set(key(c, r), { label, ties: 0 })
    at.last = { c, r, label }
    width = Math.max(width, c + 1)
  }

  for (const label of labels) {
    const prev = at.last
    if (label === tie) {
      if (prev === null) held++
      else {
        const cell = cells.get(key(prev.c, prev.r))
        if (cell) cell.ties++
      }
      continue
    }
    if (prev === null) {
      runStart = 0
      place(0, 0, label)
      const first = cells.get(key(0, 0))
      if (first) first.ties += held
      held = 0
      continue
    }
    if (label === prev.label) {
      const below = prev.r + 1
      if (!tailing && below < rows && !cells.has(key(prev.c, below))) place(prev.c, below, label)
      else {
        // Once a run has turned right it keeps going right along that row.
        tailing = true
        let c = prev.c + 1
        while (cells.has(key(c, prev.r))) c++
        place(c, prev.r, label)
      }
      continue
    }
    tailing = false
    let c = runStart + 1
    while (cells.has(key(c, 0))) c++
    runStart = c
    place(c, 0, label)
  }

  const offset = Math.max(0, width - cols)
  const columns: Column<RoadCell>[] = Array.from({ length: cols }, (_, i) =>
    Array.from({ length: rows }, (_, r) => {
      const cell = cells.get(key(offset + i, r))
      return cell ? { label: cell.label, ties: cell.ties } : null
    }),
  )
  return { columns, offset, width, heldTies: held }
}

/** How many times each label occurs. */
export function countLabels(labels: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const l of labels) out[l] = (out[l] ?? 0) + 1
  return out
}
