import { describe, expect, it } from 'vitest'
import { webCryptoHasher } from '../../../../shared/games/chain'
import { allOk, type Proof, verifySteps } from './verify'

/** The test vector of game-rules §1: c0 = sha256("demo-secret"), a 4-link chain. */
async function chain(): Promise<string[]> {
  const links = [await webCryptoHasher.sha256Hex('demo-secret')]
  for (let i = 0; i < 4; i++) links.push(await webCryptoHasher.sha256Hex(links[i] ?? ''))
  return links
}

const HEIGHT = 100_000_000
const HASH = '0000000005f5e100ff04c02e43c69f29cd97bdd469a12b0d171a09b933ec36e5'

async function proof(game: Proof['result']['game'], numbers: number[]): Promise<Proof> {
  const c = await chain()
  return {
    result: { game, round_id: '1', height: HEIGHT, block_hash: HASH, draw_at: 0, numbers, labels: {} },
    commitment: {
      terminal_hash: c[4] ?? '',
      chain_length: 4,
      start_height: HEIGHT - 1,
      block_ms: 3000,
      created_at: 0,
    },
    block_number: 1,
    key: c[3] ?? '',
    hmac_message: String(HEIGHT),
    lottery_messages: [],
    anchors: [],
  }
}

describe('verify', () => {
  it('recomputes the test vector: chain, block hash and the fast three dice', async () => {
    const steps = await verifySteps(await proof('kuaisan', [2, 3, 3]), webCryptoHasher)
    expect(steps.map((s) => s.ok)).toEqual([true, true, true, true])
    expect(steps[1]?.detail).toBe(HASH)
    expect(allOk(steps)).toBe(true)
  })

  it('recomputes racing and time-time colour', async () => {
    expect(
      allOk(await verifySteps(await proof('saiche', [4, 5, 9, 8, 7, 6, 3, 10, 1, 2]), webCryptoHasher)),
    ).toBe(true)
    expect(allOk(await verifySteps(await proof('shishicai', [8, 2, 3, 4, 0]), webCryptoHasher))).toBe(true)
  })

  it('walks through anchors to the terminal hash', async () => {
    const c = await chain()
    const p = await proof('kuaisan', [2, 3, 3])
    // Block 3 uses c1; its anchors are block 2 (c2) and block 1 (c3).
    const deep: Proof = {
      ...p,
      result: { ...p.result, height: HEIGHT + 2, block_hash: 'x', numbers: [] },
      block_number: 3,
      key: c[1] ?? '',
      anchors: [
        { block_number: 2, height: HEIGHT + 1, key: c[2] ?? '' },
        { block_number: 1, height: HEIGHT, key: c[3] ?? '' },
      ],
    }
    const steps = await verifySteps(deep, webCryptoHasher)
    expect(steps.slice(0, 3).map((s) => s.ok)).toEqual([true, true, true])
  })

  it('fails a wrong key or a wrong result', async () => {
    const p = await proof('kuaisan', [2, 3, 3])
    expect(allOk(await verifySteps({ ...p, key: 'a'.repeat(64) }, webCryptoHasher))).toBe(false)
    const wrong = await verifySteps({ ...p, result: { ...p.result, numbers: [1, 1, 1] } }, webCryptoHasher)
    expect(wrong.at(-1)?.ok).toBe(false)
  })

  it('checks a hash game from the hash alone', async () => {
    const steps = await verifySteps(await proof('qukuai', [5, 3, 5]), webCryptoHasher)
    expect(steps).toHaveLength(3)
  })
})
