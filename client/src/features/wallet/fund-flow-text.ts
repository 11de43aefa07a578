/**
 * What a fund-flow row's reference means to the player. The ledger keeps internal references
 * (`bet:41`, `round:kuaisan:202611251413`, `rebate_claim:3`) beside order numbers; the row shows
 * them in words, or not at all when the memo already says it.
 */
export function refText(ref: string | null): string | null {
  if (!ref) return null
  const colon = ref.indexOf(':')
  if (colon === -1) return `单号 ${ref}`
  const kind = ref.slice(0, colon)
  const id = ref.slice(colon + 1)
  switch (kind) {
    case 'bet':
      return `注单号 ${id}`
    case 'transfer':
      return `转账投注 ${id}`
    case 'rebate_claim':
      return `领取记录 ${id}`
    default:
      // A round's payout or refund: the memo names the game and the round.
      return null
  }
}
