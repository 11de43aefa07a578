import { awardParts } from '@client/lib/format'

/** A block hash as the award string: trimmed, its last characters highlighted (docs/product.md#pages). */
export function AwardText({ hash }: { hash: string }) {
  const { lead, highlight } = awardParts(hash)
  return (
    <span className="games-award addr-wrap" data-testid="award">
      {lead}
      <span className="games-award__highlight">{highlight}</span>
    </span>
  )
}
