import { MASK_STARS } from '@shared/constants'

/** 好运来 → 好***来, 阿明 → 阿***: the middle of a name replaced by asterisks, by characters not bytes. */
export function maskName(name: string): string {
  const chars = Array.from(name.trim())
  const stars = '*'.repeat(MASK_STARS)
  if (chars.length === 0) return stars
  if (chars.length <= 2) return `${chars[0]}${stars}`
  return `${chars[0]}${stars}${chars[chars.length - 1]}`
}
