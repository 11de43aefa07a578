import { AWARD_HIGHLIGHT } from '@shared/constants'
import { formatMoney, parseMicro, toMicro } from '@shared/money'

const ELLIPSIS = '...'

/** Splits by code point so that a surrogate pair is never cut in half. */
function chars(text: string): string[] {
  return Array.from(text)
}

function count(n: number): number {
  return Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0
}

/**
 * Keeps the first `head` and last `tail` characters joined by `...`.
 * The text comes back unchanged when cutting would not make it shorter
 * (length ≤ head + tail + 3), so a short value never grows an ellipsis.
 */
export function truncate(text: string, head: number, tail: number): string {
  const all = chars(text)
  const h = count(head)
  const t = count(tail)
  if (all.length <= h + t + ELLIPSIS.length) return text
  return `${all.slice(0, h).join('')}${ELLIPSIS}${t === 0 ? '' : all.slice(-t).join('')}`
}

export interface AwardParts {
  /** Plain part, including the leading `00...` when the string was shortened. */
  lead: string
  /** The last characters, highlighted by the component in the theme's accent colour. */
  highlight: string
}

/**
 * Splits a block hash for display as the award string (docs/product.md#pages, docs/game-rules.md#the-award-string).
 *
 * A hash of at most AWARD_HIGHLIGHT.maxLength (34) characters is shown whole. A longer one keeps its
 * tail — the part that decides the game — behind the `00...` prefix, so the shown text, prefix
 * included, is exactly 34 characters: `00...` + the last 29. The prefix stands for the run of leading
 * zeros a TRON block hash starts with. The last 3 characters are always the highlight.
 */
export function awardParts(hash: string): AwardParts {
  const { chars: highlightChars, maxLength, prefix } = AWARD_HIGHLIGHT
  const all = chars(hash)
  const shortened = all.length > maxLength
  const kept = shortened ? all.slice(-(maxLength - prefix.length)) : all
  const cut = Math.max(0, kept.length - highlightChars)
  return {
    lead: `${shortened ? prefix : ''}${kept.slice(0, cut).join('')}`,
    highlight: kept.slice(cut).join(''),
  }
}

/**
 * An amount as the player sees it: every digit the server sent (the ledger keeps micro-units), with
 * trailing zeros trimmed to at least 2 decimals, so 78.875 stays 78.875 and 78.8 reads 78.80.
 * Text that is not a plain decimal (an upstream's placeholder such as "—") is shown as it came.
 */
export function formatBalance(amount: string): string {
  try {
    return formatMoney(toMicro(amount))
  } catch {
    return amount
  }
}

/**
 * The one signed amount (docs/client.md#amounts): formatBalance with its sign always written, so
 * incoming money reads "+12.00" and outgoing "-3.00". Zero has no sign: "0", "-0.00" and "+0" all
 * read "0.00". A sign already there is kept once; text that is not a plain decimal comes back as it
 * came.
 */
export function signedAmount(amount: string): string {
  const text = amount.trim()
  const unsigned = text.replace(/^\+(?=\d)/, '')
  const micro = parseMicro(unsigned)
  if (micro === null) return amount
  if (micro === 0) return formatMoney(0)
  const shown = formatMoney(micro)
  return micro > 0 ? `+${shown}` : shown
}
