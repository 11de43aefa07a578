/**
 * Transfer betting (docs/game-rules.md, "Transfer bets"): the units digit of the whole amount picks the side. A
 * receiving address plays one pair: big/small (0–4 small, 5–9 big), odd/even (parity) or
 * banker/player (1 banker, 2 player, 3 tie; any other digit is invalid and refunded).
 */

export const TRANSFER_KINDS = ['big_small', 'odd_even', 'banker_player'] as const
export type TransferKind = (typeof TRANSFER_KINDS)[number]

/** The units digit of the whole part of a micro-USDT amount: 15.5 USDT → 5. */
export const unitsDigit = (amountMicro: number): number => Math.floor(amountMicro / 1_000_000) % 10

/** The bet type a transfer of this amount places, or null when the amount is invalid for the kind. */
export function transferSide(kind: TransferKind, amountMicro: number): string | null {
  const d = unitsDigit(amountMicro)
  switch (kind) {
    case 'big_small':
      return d >= 5 ? 'big' : 'small'
    case 'odd_even':
      return d % 2 === 1 ? 'odd' : 'even'
    case 'banker_player':
      return d === 1 ? 'banker' : d === 2 ? 'player' : d === 3 ? 'tie' : null
  }
}
