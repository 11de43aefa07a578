import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  base58Decode,
  base58Encode,
  isTronAddress,
  sha256,
  tronAddressFromAccountId,
  tronAddressProblem,
} from './tron'

/** Addresses of well-known TRON mainnet accounts and contracts. */
const REAL = [
  'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', // USDT (TRC20) contract
  'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', // USDC (TRC20) contract
  'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR', // WTRX contract
  'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', // the TRON developer docs' example account
  'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', // the all-zero account ("black hole")
]

describe('sha256', () => {
  it('matches the FIPS test vectors', () => {
    const hex = (s: string) => Buffer.from(sha256(new TextEncoder().encode(s))).toString('hex')
    expect(hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    )
  })

  it('agrees with node:crypto on any input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        const ours = Buffer.from(sha256(data)).toString('hex')
        expect(ours).toBe(createHash('sha256').update(data).digest('hex'))
      }),
      { numRuns: 200 },
    )
  })
})

describe('base58', () => {
  it('round-trips bytes, leading zeros included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (data) => {
        expect(base58Decode(base58Encode(data))).toEqual(data)
      }),
    )
  })

  it('refuses characters outside the alphabet (0, O, I, l)', () => {
    for (const ch of ['0', 'O', 'I', 'l', ' ']) expect(base58Decode(`abc${ch}`)).toBeUndefined()
  })
})

describe('TRON addresses', () => {
  it('accepts real mainnet addresses', () => {
    for (const a of REAL) expect(tronAddressProblem(a), a).toBeNull()
  })

  it('refuses each kind of bad address with its own reason', () => {
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6')).toBe('地址长度应为34位')
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6tt')).toBe('地址长度应为34位')
    // A Bitcoin address of the same length.
    expect(tronAddressProblem('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe('地址应以 T 开头')
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60')).toBe('地址包含无效字符')
    // One character changed: the checksum no longer matches.
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T')).toBe('地址校验失败，请检查是否输入有误')
    expect(tronAddressProblem('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj7t')).toBe('地址校验失败，请检查是否输入有误')
    // Valid base58check of the right length, but with another version byte.
    const wrongVersion = new Uint8Array(25)
    wrongVersion[0] = 0x42
    expect(isTronAddress(base58Encode(wrongVersion))).toBe(false)
  })

  it('builds valid addresses from account ids, and every one-character typo is caught', () => {
    expect(tronAddressFromAccountId(new Uint8Array(20))).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(33), fc.nat(57), (id, pos, alt) => {
        const address = tronAddressFromAccountId(id)
        expect(address).toHaveLength(34)
        expect(isTronAddress(address)).toBe(true)
        const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
        const replacement = alphabet[alt] ?? '1'
        if (replacement === address[pos]) return
        const typo = address.slice(0, pos) + replacement + address.slice(pos + 1)
        expect(isTronAddress(typo)).toBe(false)
      }),
      { numRuns: 300 },
    )
  })
})
