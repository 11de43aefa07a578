/**
 * The simulated chain (docs/game-rules.md, "The chain"): a hash chain committed by its terminal hash, block hashes
 * keyed by revealed links, and the lottery bytes derived from a block hash. Every hash and key is
 * its 64-character lowercase hex text; where one is hashed or used as an HMAC key, the ASCII bytes
 * of that text are used.
 *
 * The hashing itself is injected: the browser uses Web Crypto (`webCryptoHasher`), the server a
 * synchronous node:crypto hasher; a test proves both give identical results.
 */

export interface AsyncHasher {
  sha256Hex(text: string): Promise<string>
  hmacSha256Hex(key: string, message: string): Promise<string>
}

export interface SyncHasher {
  sha256Hex(text: string): string
  hmacSha256Hex(key: string, message: string): string
}

const encoder = new TextEncoder()

const toHex = (buf: ArrayBuffer): string => {
  const bytes = new Uint8Array(buf)
  let out = ''
  for (const b of bytes) out += b.toString(16).padStart(2, '0')
  return out
}

/** SHA-256 and HMAC-SHA-256 through `globalThis.crypto.subtle` (browsers and Node 20+). */
export const webCryptoHasher: AsyncHasher = {
  async sha256Hex(text) {
    return toHex(await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(text)))
  },
  async hmacSha256Hex(key, message) {
    const k = await globalThis.crypto.subtle.importKey(
      'raw',
      encoder.encode(key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    return toHex(await globalThis.crypto.subtle.sign('HMAC', k, encoder.encode(message)))
  },
}

/** The height as 16 hex digits, the way a TRON block id starts. */
export const hex16 = (height: number): string => {
  if (!Number.isSafeInteger(height) || height < 0) throw new RangeError(`bad height ${height}`)
  return height.toString(16).padStart(16, '0')
}

/** `hex16(h) + hmac.slice(0, 48)`: 64 lowercase hex characters, height first. */
export const blockHashFromHmac = (height: number, hmacHex: string): string =>
  hex16(height) + hmacHex.slice(0, 48)

/** The HMAC message whose output, keyed by a block hash, gives one round of lottery bytes. */
export const lotteryMessage = (gameCode: string, height: number, round: number): string =>
  `${gameCode}:${height}:${round}`

/** 32 bytes (64 hex) → 8 floats in [0, 1): f = b0/256 + b1/256² + b2/256³ + b3/256⁴. */
export function floatsFromHex(hex: string): number[] {
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new RangeError('expected 64 hex characters')
  const out: number[] = []
  for (let i = 0; i < 8; i++) {
    const word = Number.parseInt(hex.slice(i * 8, i * 8 + 8), 16)
    out.push(word / 2 ** 32)
  }
  return out
}

/** How many byte rounds a game's draw needs for `count` floats. */
export const roundsFor = (count: number): number => Math.ceil(count / 8)

export async function blockHash(hasher: AsyncHasher, height: number, key: string): Promise<string> {
  return blockHashFromHmac(height, await hasher.hmacSha256Hex(key, String(height)))
}

export function blockHashSync(hasher: SyncHasher, height: number, key: string): string {
  return blockHashFromHmac(height, hasher.hmacSha256Hex(key, String(height)))
}

export async function lotteryFloats(
  hasher: AsyncHasher,
  hash: string,
  gameCode: string,
  height: number,
  count: number,
): Promise<number[]> {
  const out: number[] = []
  for (let r = 0; r < roundsFor(count); r++) {
    out.push(...floatsFromHex(await hasher.hmacSha256Hex(hash, lotteryMessage(gameCode, height, r))))
  }
  return out.slice(0, count)
}

export function lotteryFloatsSync(
  hasher: SyncHasher,
  hash: string,
  gameCode: string,
  height: number,
  count: number,
): number[] {
  const out: number[] = []
  for (let r = 0; r < roundsFor(count); r++) {
    out.push(...floatsFromHex(hasher.hmacSha256Hex(hash, lotteryMessage(gameCode, height, r))))
  }
  return out.slice(0, count)
}

/** Hashes `key` `steps` times: a revealed key c(j) hashed s times must give c(j + s). */
export async function walkChain(hasher: AsyncHasher, key: string, steps: number): Promise<string> {
  let c = key
  for (let i = 0; i < steps; i++) c = await hasher.sha256Hex(c)
  return c
}

export function walkChainSync(hasher: SyncHasher, key: string, steps: number): string {
  let c = key
  for (let i = 0; i < steps; i++) c = hasher.sha256Hex(c)
  return c
}

/**
 * Block number k (counted from the chain's start) uses link c(N − k); block 0 is the commitment
 * itself, so blocks 1 … N can be played.
 */
export const linkIndexForBlock = (chainLength: number, blockNumber: number): number => {
  if (!Number.isInteger(blockNumber) || blockNumber < 1 || blockNumber > chainLength) {
    throw new RangeError(`block ${blockNumber} is outside the chain (1…${chainLength})`)
  }
  return chainLength - blockNumber
}
