/** Reading a block hash (docs/game-rules.md, "Reading a hash"). */

const isDigit = (ch: string): boolean => ch >= '0' && ch <= '9'

/** The first `count` decimal digits scanning from the right (letters are skipped), rightmost first. */
export function hashDigits(hash: string, count: number): number[] {
  const out: number[] = []
  for (let i = hash.length - 1; i >= 0 && out.length < count; i--) {
    const ch = hash.charAt(i)
    if (isDigit(ch)) out.push(Number(ch))
  }
  if (out.length < count) throw new RangeError(`hash has fewer than ${count} decimal digits`)
  return out
}

/** Scan from the right and take the first decimal digit; letters are skipped. */
export const hashDigit = (hash: string): number => hashDigits(hash, 1)[0] ?? 0

/** The last n characters. */
export const lastChars = (hash: string, n: number): string => hash.slice(-n)

/** A character's number where one is needed: a digit is itself, a letter counts as 0. */
export const charValue = (ch: string): number => (isDigit(ch) ? Number(ch) : 0)

/** One digit and one letter (either order) among the last two characters. */
export function isLucky(hash: string): boolean {
  const [a = '', b = ''] = lastChars(hash, 2)
  return isDigit(a) !== isDigit(b)
}

/** Banker = (c1 + c2) mod 10, player = (c4 + c5) mod 10 over the last five characters. */
export function bankerPlayer(hash: string): { banker: number; player: number } {
  const [c1 = '', c2 = '', , c4 = '', c5 = ''] = lastChars(hash, 5)
  return {
    banker: (charValue(c1) + charValue(c2)) % 10,
    player: (charValue(c4) + charValue(c5)) % 10,
  }
}
