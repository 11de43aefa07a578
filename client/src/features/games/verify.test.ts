import { webCryptoHasher } from '@shared/games/chain'
import { describe, expect, it } from 'vitest'
import type { HeldCommitment } from './commitment'
import { allOk, type Proof, verifySteps } from './verify'

/** The test vector of docs/game-rules.md#the-chain: c0 = sha256("demo-secret"), a 4-link chain. */
async function chain(): Promise<string[]> {
  const links = [await webCryptoHasher.sha256Hex('demo-secret')]
  for (let i = 0; i < 4; i++) links.push(await webCryptoHasher.sha256Hex(links[i] ?? ''))
  return links
}

const HEIGHT = 100_000_000
const HASH = '0000000005f5e100ff04c02e43c69f29cd97bdd469a12b0d171a09b933ec36e5'

async function proof(
  game: Proof['result']['game'],
  numbers: number[],
  labels: Record<string, string>,
): Promise<Proof> {
  const c = await chain()
  return {
    result: { game, round_id: '1', height: HEIGHT, block_hash: HASH, draw_at: 0, numbers, labels },
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

/** What this device saw on a game page before the round. */
const held = (p: Proof): HeldCommitment => ({ ...p.commitment, seen_at: 1 })

const KUAISAN_LABELS = { big_small: 'small', odd_even: 'even' }

describe('verify', () => {
  it('recomputes the test vector: chain, block hash, dice and labels', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const steps = await verifySteps(p, held(p), webCryptoHasher)
    expect(steps.map((s) => [s.kind, s.ok])).toEqual([
      ['chain', true],
      ['block-hash', true],
      ['floats', true],
      ['numbers', true],
      ['labels', true],
    ])
    expect(steps[1]?.detail).toBe(HASH)
    expect(steps[4]?.detail).toBe('小 双（服务器：小 双）')
    expect(allOk(steps)).toBe(true)
  })

  it('recomputes racing, time-time colour and the block game with their labels', async () => {
    const racing = await proof('saiche', [4, 5, 9, 8, 7, 6, 3, 10, 1, 2], {
      top2_big_small: 'small',
      top2_odd_even: 'odd',
      dragon_tiger_1: 'dragon',
      dragon_tiger_2: 'dragon',
      dragon_tiger_3: 'tiger',
      dragon_tiger_4: 'dragon',
      dragon_tiger_5: 'dragon',
    })
    expect(allOk(await verifySteps(racing, held(racing), webCryptoHasher))).toBe(true)
    const colour = await proof('shishicai', [8, 2, 3, 4, 0], {
      sum_big_small: 'small',
      sum_odd_even: 'odd',
      dragon_tiger: 'dragon',
    })
    expect(allOk(await verifySteps(colour, held(colour), webCryptoHasher))).toBe(true)
    // Last digit 5: big, odd; "e5" lucky; banker 3, player 5.
    const block = await proof('qukuai', [5, 3, 5], {
      big_small: 'big',
      odd_even: 'odd',
      lucky: 'lucky',
      banker_player: 'player',
    })
    const steps = await verifySteps(block, held(block), webCryptoHasher)
    expect(steps.map((s) => s.kind)).toEqual(['chain', 'block-hash', 'numbers', 'labels'])
    expect(allOk(steps)).toBe(true)
  })

  it('fails the labels when the server names another result than its numbers decide', async () => {
    const p = await proof('qukuai', [5, 3, 5], {
      big_small: 'big',
      odd_even: 'odd',
      lucky: 'lucky',
      banker_player: 'banker',
    })
    const steps = await verifySteps(p, held(p), webCryptoHasher)
    expect(steps.find((s) => s.kind === 'numbers')?.ok).toBe(true)
    expect(steps.find((s) => s.kind === 'labels')?.ok).toBe(false)
    expect(allOk(steps)).toBe(false)
  })

  it('walks through anchors to the held terminal hash', async () => {
    const c = await chain()
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
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
    const steps = await verifySteps(deep, held(p), webCryptoHasher)
    expect(steps.slice(0, 3).map((s) => s.ok)).toEqual([true, true, true])
  })

  it('checks the chain against the held commitment, not the one sent with the proof', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    // A server that swapped chains sends a proof that agrees with its own new commitment.
    const swapped: Proof = { ...p, commitment: { ...p.commitment, terminal_hash: 'f'.repeat(64) } }
    const steps = await verifySteps(swapped, held(p), webCryptoHasher)
    expect(steps[0]?.ok).toBe(true)
    const other = await verifySteps(p, { ...held(p), terminal_hash: 'e'.repeat(64) }, webCryptoHasher)
    expect(other[0]?.ok).toBe(false)
    expect(allOk(other)).toBe(false)
  })

  it('fails the chain when no commitment is held or the block number does not match the held start', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const none = await verifySteps(p, null, webCryptoHasher)
    expect(none[0]?.ok).toBe(false)
    expect(none[0]?.detail).toContain('本机没有保存这条链的承诺')
    const shifted = await verifySteps(p, { ...held(p), start_height: HEIGHT - 2 }, webCryptoHasher)
    expect(shifted[0]?.ok).toBe(false)
  })

  it('fails a wrong key or a wrong result', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    expect(allOk(await verifySteps({ ...p, key: 'a'.repeat(64) }, held(p), webCryptoHasher))).toBe(false)
    const wrong = await verifySteps(
      { ...p, result: { ...p.result, numbers: [1, 1, 1] } },
      held(p),
      webCryptoHasher,
    )
    expect(wrong.find((s) => s.kind === 'numbers')?.ok).toBe(false)
  })
})
