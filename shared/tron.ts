/**
 * TRON addresses: 34 characters of base58 that decode to 25 bytes — the version byte 0x41, a
 * 20-byte account id and a 4-byte checksum (the first bytes of SHA-256 applied twice to the first
 * 21). Pure and synchronous (a small SHA-256 is included), so the same check runs in a zod schema on
 * the server and in the browser.
 */

export const TRON_ADDRESS_LENGTH = 34
export const TRON_VERSION_BYTE = 0x41

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const BASE58_INDEX = new Map([...BASE58_ALPHABET].map((c, i) => [c, i]))

// ── SHA-256 (FIPS 180-4) ────────────────────────────────────────────────────────────────────────

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n))

/** SHA-256 of a byte string. */
export function sha256(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64)
  padded.set(data)
  padded[data.length] = 0x80
  const view = new DataView(padded.buffer)
  // Messages here are far below 2^32 bits, so the high word of the length stays zero.
  view.setUint32(padded.length - 4, bitLength >>> 0)
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32))

  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ])
  const w = new Uint32Array(64)
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(offset + i * 4)
    for (let i = 16; i < 64; i++) {
      const w15 = w[i - 15] ?? 0
      const w2 = w[i - 2] ?? 0
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3)
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10)
      w[i] = ((w[i - 16] ?? 0) + s0 + (w[i - 7] ?? 0) + s1) >>> 0
    }
    let [a, b, c, d, e, f, g, hh] = [
      h[0] ?? 0,
      h[1] ?? 0,
      h[2] ?? 0,
      h[3] ?? 0,
      h[4] ?? 0,
      h[5] ?? 0,
      h[6] ?? 0,
      h[7] ?? 0,
    ]
    for (let i = 0; i < 64; i++) {
      const s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
      const ch = (e & f) ^ (~e & g)
      const t1 = (hh + s1 + ch + (K[i] ?? 0) + (w[i] ?? 0)) >>> 0
      const s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
      const maj = (a & b) ^ (a & c) ^ (b & c)
      const t2 = (s0 + maj) >>> 0
      hh = g
      g = f
      f = e
      e = (d + t1) >>> 0
      d = c
      c = b
      b = a
      a = (t1 + t2) >>> 0
    }
    const add = [a, b, c, d, e, f, g, hh]
    for (let i = 0; i < 8; i++) h[i] = ((h[i] ?? 0) + (add[i] ?? 0)) >>> 0
  }
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i] ?? 0)
  return out
}

// ── base58 ──────────────────────────────────────────────────────────────────────────────────────

/** Base58 (Bitcoin alphabet) to bytes; undefined when a character is not in the alphabet. */
export function base58Decode(text: string): Uint8Array | undefined {
  const bytes: number[] = []
  for (const ch of text) {
    const value = BASE58_INDEX.get(ch)
    if (value === undefined) return undefined
    let carry = value
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] ?? 0) * 58
      bytes[i] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  for (const ch of text) {
    if (ch !== '1') break
    bytes.push(0)
  }
  return Uint8Array.from(bytes.reverse())
}

export function base58Encode(data: Uint8Array): string {
  const digits: number[] = []
  for (const byte of data) {
    let carry = byte
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] ?? 0) << 8
      digits[i] = carry % 58
      carry = Math.floor(carry / 58)
    }
    while (carry > 0) {
      digits.push(carry % 58)
      carry = Math.floor(carry / 58)
    }
  }
  let out = ''
  for (const byte of data) {
    if (byte !== 0) break
    out += '1'
  }
  for (let i = digits.length - 1; i >= 0; i--) out += BASE58_ALPHABET[digits[i] ?? 0]
  return out
}

const checksumOf = (payload: Uint8Array) => sha256(sha256(payload)).subarray(0, 4)

// ── addresses ───────────────────────────────────────────────────────────────────────────────────

/** Why a text is not a TRON address, in the interface's language; null when it is one. */
export function tronAddressProblem(text: string): string | null {
  if (text.length !== TRON_ADDRESS_LENGTH) return `地址长度应为${TRON_ADDRESS_LENGTH}位`
  if (!text.startsWith('T')) return '地址应以 T 开头'
  const bytes = base58Decode(text)
  if (!bytes) return '地址包含无效字符'
  if (bytes.length !== 25 || bytes[0] !== TRON_VERSION_BYTE) return '不是有效的 TRON 地址'
  const expected = checksumOf(bytes.subarray(0, 21))
  for (let i = 0; i < 4; i++) if (bytes[21 + i] !== expected[i]) return '地址校验失败，请检查是否输入有误'
  return null
}

export const isTronAddress = (text: string): boolean => tronAddressProblem(text) === null

/** The address of a 20-byte account id (version byte and checksum added). */
export function tronAddressFromAccountId(accountId: Uint8Array): string {
  if (accountId.length !== 20) throw new RangeError('a TRON account id is 20 bytes')
  const payload = new Uint8Array(21)
  payload[0] = TRON_VERSION_BYTE
  payload.set(accountId, 1)
  const full = new Uint8Array(25)
  full.set(payload)
  full.set(checksumOf(payload), 21)
  return base58Encode(full)
}
