import { MASK_STARS } from './constants'

/**
 * The one mask of the app, for the client and the server alike (docs/client.md#amounts): a phone
 * number, a nickname, a player id or a hidden amount shows only its ends, or nothing, around a fixed
 * number of asterisks.
 */

/** Splits by code point so that a surrogate pair is never cut in half. */
const chars = (text: string): string[] => Array.from(text)

const count = (n: number): number => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0)

export interface MaskOptions {
  keepHead: number
  keepTail: number
  /** How many asterisks stand for the hidden middle. */
  stars?: number
}

/**
 * Replaces the middle with asterisks: `mask('13812345678', { keepHead: 3, keepTail: 4 })` → `138***5678`.
 * The number of stars is fixed, so the output does not reveal the hidden length.
 * When the text is too short to have a middle, only the stars are shown: a mask fails closed
 * rather than revealing the whole value.
 */
export function mask(text: string, { keepHead, keepTail, stars = MASK_STARS }: MaskOptions): string {
  if (text === '') return ''
  const all = chars(text)
  const h = count(keepHead)
  const t = count(keepTail)
  const middle = '*'.repeat(count(stars))
  if (all.length <= h + t) return middle
  return `${all.slice(0, h).join('')}${middle}${t === 0 ? '' : all.slice(-t).join('')}`
}

/** A phone number with its middle masked: 13812345678 → 138***5678. */
export const maskPhone = (phone: string): string => mask(phone.trim(), { keepHead: 3, keepTail: 4 })

/**
 * A name or an id with only its first and last character shown: 好运来 → 好***来, 100234 → 1***4.
 * Two characters keep only the first (阿明 → 阿***); one keeps none (7 → ***), and an empty name is
 * the stars too, so a list's row always has a name.
 */
export function maskName(name: string): string {
  const text = name.trim()
  if (text === '') return '*'.repeat(MASK_STARS)
  return mask(text, { keepHead: 1, keepTail: chars(text).length > 2 ? 1 : 0 })
}
