/** One bar of the daily chart, in the SVG's own units. */
export interface Bar {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
  readonly positive: boolean
}

export interface ChartGeometry {
  readonly bars: Bar[]
  /** Where zero is, from the top. */
  readonly zeroY: number
}

/**
 * Bars for signed values around a zero line: the largest magnitude fills the height on its side,
 * a zero value gets no height. `gap` is the share of each slot left empty.
 */
export function barGeometry(
  values: readonly number[],
  width: number,
  height: number,
  gap = 0.25,
): ChartGeometry {
  const max = Math.max(0, ...values)
  const min = Math.min(0, ...values)
  const span = max - min
  const zeroY = span === 0 ? height / 2 : (max / span) * height
  const slot = values.length === 0 ? 0 : width / values.length
  const bars = values.map((v, i) => {
    const h = span === 0 ? 0 : (Math.abs(v) / span) * height
    return {
      x: i * slot + (slot * gap) / 2,
      y: v >= 0 ? zeroY - h : zeroY,
      width: slot * (1 - gap),
      height: h,
      positive: v >= 0,
    }
  })
  return { bars, zeroY }
}
