import { createHash, createHmac } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  blockHash,
  blockHashSync,
  floatsFromHex,
  webCryptoHasher as h,
  hex16,
  linkIndexForBlock,
  lotteryFloats,
  lotteryFloatsSync,
  lotteryMessage,
  roundsFor,
  walkChain,
  walkChainSync,
} from './chain'
import { bankerPlayer, hashDigit, isLucky, lastChars } from './hash-reading'
import { drawBalls, drawCars, drawDice, FLOATS_NEEDED } from './outcome'

// docs/game-rules.md ("The chain") example: c0 = sha256("demo-secret"), a 4-link chain.
const C3 = '0c6c190c17f9f758873fc96ce045e3ab283e9567fe2707875fb08710a60b6d94'
const C4 = '136f506eb7c4bf92d9eb7d2f269c57ee8d84deab41d4d0a243f016f7b475b8e2'
const HEIGHT = 100_000_000
const HASH = '0000000005f5e100ff04c02e43c69f29cd97bdd469a12b0d171a09b933ec36e5'

describe('the simulated chain (test vector)', () => {
  it('builds the 4-link chain to its terminal hash', async () => {
    const c0 = await h.sha256Hex('demo-secret')
    expect(await walkChain(h, c0, 4)).toBe(C4)
    expect(await walkChain(h, c0, 3)).toBe(C3)
    // The key of a block is proved by one hash to the next link.
    expect(await h.sha256Hex(C3)).toBe(C4)
  })

  it('derives the block hash for height 100000000 from c3', async () => {
    expect(await blockHash(h, HEIGHT, C3)).toBe(HASH)
    expect(hex16(HEIGHT)).toBe('0000000005f5e100')
  })

  it('reads the block: big, odd, lucky, banker 3 vs player 5', () => {
    expect(hashDigit(HASH)).toBe(5)
    expect(lastChars(HASH, 2)).toBe('e5')
    expect(isLucky(HASH)).toBe(true)
    expect(lastChars(HASH, 5)).toBe('c36e5')
    expect(bankerPlayer(HASH)).toEqual({ banker: 3, player: 5 })
  })

  it('re-derives the three lottery draws at that height', async () => {
    const dice = drawDice(await lotteryFloats(h, HASH, 'kuaisan', HEIGHT, FLOATS_NEEDED.kuaisan))
    const balls = drawBalls(await lotteryFloats(h, HASH, 'shishicai', HEIGHT, FLOATS_NEEDED.shishicai))
    const cars = drawCars(await lotteryFloats(h, HASH, 'saiche', HEIGHT, FLOATS_NEEDED.saiche))
    expect(dice).toEqual([2, 3, 3])
    expect(balls).toEqual([8, 2, 3, 4, 0])
    expect(cars).toEqual([4, 5, 9, 8, 7, 6, 3, 10, 1, 2])
  })

  it('maps block k to link N − k and refuses blocks outside the chain', () => {
    expect(linkIndexForBlock(4, 1)).toBe(3)
    expect(linkIndexForBlock(4, 4)).toBe(0)
    expect(() => linkIndexForBlock(4, 0)).toThrow(RangeError)
    expect(() => linkIndexForBlock(4, 5)).toThrow(RangeError)
  })
})

describe('lottery bytes', () => {
  it('turns 32 bytes into 8 floats in [0, 1), big-endian per 4 bytes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{64}$/), (hex) => {
        const fs = floatsFromHex(hex)
        expect(fs).toHaveLength(8)
        for (const [i, f] of fs.entries()) {
          expect(f).toBeGreaterThanOrEqual(0)
          expect(f).toBeLessThan(1)
          const b = [0, 1, 2, 3].map((j) => Number.parseInt(hex.slice(i * 8 + j * 2, i * 8 + j * 2 + 2), 16))
          const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = b
          expect(f).toBe(b0 / 256 + b1 / 256 ** 2 + b2 / 256 ** 3 + b3 / 256 ** 4)
        }
      }),
    )
    expect(floatsFromHex('f'.repeat(64))[0]).toBe(1 - 2 ** -32)
  })

  it('draws dice 1–6, balls 0–9 and a permutation of cars 1–10 from any floats', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), {
          minLength: 10,
          maxLength: 10,
        }),
        (fs) => {
          for (const d of drawDice(fs)) expect(d >= 1 && d <= 6).toBe(true)
          for (const b of drawBalls(fs)) expect(b >= 0 && b <= 9).toBe(true)
          expect([...drawCars(fs)].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        },
      ),
    )
  })
})

/** The server's hasher: node:crypto, synchronous. */
const nodeHasher = {
  sha256Hex: (text: string) => createHash('sha256').update(text).digest('hex'),
  hmacSha256Hex: (key: string, message: string) => createHmac('sha256', key).update(message).digest('hex'),
}

describe('the synchronous chain functions (the server’s)', () => {
  it('give the test vector’s chain, block hash and lottery floats, as the browser’s do', async () => {
    const c0 = nodeHasher.sha256Hex('demo-secret')
    expect(walkChainSync(nodeHasher, c0, 4)).toBe(C4)
    expect(walkChainSync(nodeHasher, c0, 0)).toBe(c0)
    expect(blockHashSync(nodeHasher, HEIGHT, C3)).toBe(HASH)
    for (const [game, count] of [
      ['kuaisan', 3],
      ['saiche', 10],
      ['shishicai', 8],
      ['shishicai', 9],
    ] as const) {
      const sync = lotteryFloatsSync(nodeHasher, HASH, game, HEIGHT, count)
      expect(sync).toHaveLength(count)
      expect(sync).toEqual(await lotteryFloats(h, HASH, game, HEIGHT, count))
    }
    expect(drawDice(lotteryFloatsSync(nodeHasher, HASH, 'kuaisan', HEIGHT, 3))).toEqual([2, 3, 3])
  })

  it('key each round of lottery bytes by game, height and round', () => {
    expect(lotteryMessage('saiche', 12, 1)).toBe('saiche:12:1')
    const [first] = lotteryFloatsSync(nodeHasher, HASH, 'saiche', HEIGHT, 10).slice(8)
    expect(first).toBe(floatsFromHex(nodeHasher.hmacSha256Hex(HASH, `saiche:${HEIGHT}:1`))[0])
  })
})

describe('bad input', () => {
  it('refuses heights that are not safe non-negative integers', () => {
    expect(hex16(0)).toBe('0000000000000000')
    for (const height of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(() => hex16(height)).toThrow(new RangeError(`bad height ${height}`))
    }
  })

  it('reads lottery bytes only from 64 lowercase hex characters', () => {
    for (const hex of ['0'.repeat(63), '0'.repeat(65), 'A'.repeat(64), `g${'0'.repeat(63)}`]) {
      expect(() => floatsFromHex(hex)).toThrow('expected 64 hex characters')
    }
  })

  it('needs one round of bytes per 8 floats', () => {
    expect([0, 1, 8, 9, 16, 17].map(roundsFor)).toEqual([0, 1, 1, 2, 2, 3])
  })

  it('refuses a block number that is not a whole number within the chain, saying which', () => {
    expect(() => linkIndexForBlock(4, 1.5)).toThrow('block 1.5 is outside the chain (1…4)')
    expect(linkIndexForBlock(1, 1)).toBe(0)
  })
})
