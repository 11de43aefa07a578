import { blockHash, lotteryFloats, webCryptoHasher } from '@shared/games/chain'
import type { GameCode } from '@shared/games/config'
import { drawOutcome, FLOATS_NEEDED } from '@shared/games/outcome'
import { issueOfMinute } from '@shared/games/rounds'
import { describe, expect, it } from 'vitest'
import type { HeldCommitment } from './commitment'
import {
  allOk,
  anchorProblems,
  type BetRecord,
  betProblems,
  MAX_WALK,
  type PlayerBets,
  type Proof,
  roundProblems,
  type VerifyInput,
  type VerifyStep,
  verifySteps,
} from './verify'

/** The test vector of docs/game-rules.md#the-chain: c0 = sha256("demo-secret"), a 4-link chain. */
async function chain(): Promise<string[]> {
  const links = [await webCryptoHasher.sha256Hex('demo-secret')]
  for (let i = 0; i < 4; i++) links.push(await webCryptoHasher.sha256Hex(links[i] ?? ''))
  return links
}

const HEIGHT = 100_000_000
const BLOCK_MS = 3000
const DRAW_AT = HEIGHT * BLOCK_MS
const HASH = '0000000005f5e100ff04c02e43c69f29cd97bdd469a12b0d171a09b933ec36e5'
/** The issue whose draw falls on HEIGHT: the minute before the block's time. */
const ISSUE = issueOfMinute(DRAW_AT - 60_000)

const LOTTERY = new Set<GameCode>(['kuaisan', 'shishicai', 'saiche'])
const roundIdOf = (game: GameCode) => (LOTTERY.has(game) ? ISSUE : String(HEIGHT))

async function proof(game: GameCode, numbers: number[], labels: Record<string, string>): Promise<Proof> {
  const c = await chain()
  return {
    result: {
      game,
      round_id: roundIdOf(game),
      height: HEIGHT,
      block_hash: HASH,
      draw_at: DRAW_AT,
      numbers,
      labels,
    },
    commitment: {
      terminal_hash: c[4] ?? '',
      chain_length: 4,
      start_height: HEIGHT - 1,
      block_ms: BLOCK_MS,
      created_at: 0,
    },
    block_number: 1,
    key: c[3] ?? '',
    hmac_message: String(HEIGHT),
    lottery_messages: Array.from(
      { length: Math.ceil(FLOATS_NEEDED[game] / 8) },
      (_, i) => `${game}:${HEIGHT}:${i}`,
    ),
    anchors: [],
  }
}

/** What this device saw on a game page before the round. */
const held = (p: Proof): HeldCommitment => ({ ...p.commitment, seen_at: 1 })

const LOGGED_OUT: PlayerBets = { kind: 'logged-out' }

const input = (p: Proof, over: Partial<VerifyInput> = {}): VerifyInput => ({
  page: { game: p.result.game, roundId: p.result.round_id },
  proof: p,
  held: held(p),
  damaged: false,
  bets: LOGGED_OUT,
  ...over,
})

const run = (i: VerifyInput) => verifySteps(i, webCryptoHasher)
const step = (steps: VerifyStep[], kind: string) => steps.filter((s) => s.kind === kind)

const KUAISAN_LABELS = { big_small: 'small', odd_even: 'even' }

/** A proof whose result is recomputed from another key, as a lying server would send it. */
async function withKey(p: Proof, key: string): Promise<Proof> {
  const hash = await blockHash(webCryptoHasher, HEIGHT, key)
  const game = p.result.game
  const floats = LOTTERY.has(game)
    ? await lotteryFloats(webCryptoHasher, hash, game, HEIGHT, FLOATS_NEEDED[game])
    : []
  const outcome = drawOutcome(game, hash, floats)
  return { ...p, key, result: { ...p.result, block_hash: hash, ...outcome } }
}

const bet = (over: Partial<BetRecord> = {}): BetRecord => ({
  id: 1,
  game: 'kuaisan',
  game_name: '快三',
  round_id: ISSUE,
  height: HEIGHT,
  bet_type: 'small',
  label: '小',
  stake: '10.00',
  odds: '1.96',
  status: 'won',
  payout: '19.60',
  source: 'app',
  placed_at: DRAW_AT - 30_000,
  draw_at: DRAW_AT,
  settled_at: DRAW_AT,
  ...over,
})

const loaded = (...bets: BetRecord[]): PlayerBets => ({ kind: 'loaded', bets, tripleVoidsBigSmall: false })

describe('verify', () => {
  it('recomputes the test vector: round, chain, block hash, dice and labels', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const steps = await run(input(p))
    expect(steps.map((s) => [s.kind, s.ok])).toEqual([
      ['round', true],
      ['chain', true],
      ['block-hash', true],
      ['floats', true],
      ['numbers', true],
      ['labels', true],
    ])
    expect(steps[2]?.detail).toBe(HASH)
    expect(steps[5]?.detail).toBe('小 双（服务器：小 双）')
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
    expect(allOk(await run(input(racing)))).toBe(true)
    const colour = await proof('shishicai', [8, 2, 3, 4, 0], {
      sum_big_small: 'small',
      sum_odd_even: 'odd',
      dragon_tiger: 'dragon',
    })
    expect(allOk(await run(input(colour)))).toBe(true)
    // Last digit 5: big, odd; "e5" lucky; banker 3, player 5.
    const block = await proof('qukuai', [5, 3, 5], {
      big_small: 'big',
      odd_even: 'odd',
      lucky: 'lucky',
      banker_player: 'player',
    })
    const steps = await run(input(block))
    expect(steps.map((s) => s.kind)).toEqual(['round', 'chain', 'block-hash', 'numbers', 'labels'])
    expect(allOk(steps)).toBe(true)
  })

  it('fails the labels when the server names another result than its numbers decide', async () => {
    const p = await proof('qukuai', [5, 3, 5], {
      big_small: 'big',
      odd_even: 'odd',
      lucky: 'lucky',
      banker_player: 'banker',
    })
    const steps = await run(input(p))
    expect(step(steps, 'numbers')[0]?.ok).toBe(true)
    expect(step(steps, 'labels')[0]?.ok).toBe(false)
    expect(allOk(steps)).toBe(false)
  })

  it('walks through anchors to the held terminal hash', async () => {
    const c = await chain()
    const p = await proof('qukuai', [], {})
    // Block 3 uses c1; its anchors are block 2 (c2) and block 1 (c3).
    const deep: Proof = {
      ...p,
      result: {
        ...p.result,
        round_id: String(HEIGHT + 2),
        height: HEIGHT + 2,
        draw_at: (HEIGHT + 2) * BLOCK_MS,
      },
      block_number: 3,
      key: c[1] ?? '',
      anchors: [
        { block_number: 2, height: HEIGHT + 1, key: c[2] ?? '' },
        { block_number: 1, height: HEIGHT, key: c[3] ?? '' },
      ],
    }
    const steps = await run(input(deep))
    expect(steps.slice(0, 4).map((s) => [s.kind, s.ok])).toEqual([
      ['round', true],
      ['chain', true],
      ['chain', true],
      ['chain', true],
    ])
  })

  it('fails an anchor at a negative block that lets the server reveal a key from deeper in its chain', async () => {
    const c = await chain()
    const honest = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    // Block 1's key is c3; c0 is block 4's, three links deeper. Hashing it 1 − (−3) = 4 times gives
    // c4, the terminal, which the anchor "block −3" then claims is reached in −3 steps.
    const lying = await withKey(
      {
        ...honest,
        anchors: [{ block_number: -3, height: HEIGHT - 4, key: c[4] ?? '' }],
      },
      c[0] ?? '',
    )
    const steps = await run(input(lying))
    const chainSteps = step(steps, 'chain')
    expect(chainSteps.at(-1)?.ok).toBe(false)
    expect(chainSteps.at(-1)?.detail).toContain('锚点区块 -3 不是承诺内的区块')
    // Everything the lie computes from its own key agrees with itself; only the chain gives it away.
    expect(steps.filter((s) => s.kind !== 'chain').every((s) => s.ok)).toBe(true)
    expect(allOk(steps)).toBe(false)
  })

  it('fails an anchor at block 0, an anchor at or beyond the revealed block and one at another height', async () => {
    const c = await chain()
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const zero = await run(
      input({ ...p, anchors: [{ block_number: 0, height: HEIGHT - 1, key: c[4] ?? '' }] }),
    )
    expect(allOk(zero)).toBe(false)
    expect(step(zero, 'chain').at(-1)?.detail).toContain('锚点区块 0 不是承诺内的区块')

    const heldC = held(p)
    expect(anchorProblems(heldC, 3, { block_number: 3, height: HEIGHT + 2, key: c[1] ?? '' })).toEqual([
      '锚点区块 3 应在区块 3 之前（步数 0 应为正数）',
    ])
    expect(anchorProblems(heldC, 3, { block_number: 5, height: HEIGHT + 4, key: c[1] ?? '' })[0]).toContain(
      '步数 -2 应为正数',
    )
    expect(anchorProblems(heldC, 3, { block_number: 2, height: HEIGHT + 7, key: c[2] ?? '' })).toEqual([
      '锚点高度 100000007 与区块 2 不符（应为 100000001）',
    ])
    expect(anchorProblems(heldC, 3, { block_number: 2, height: HEIGHT + 1, key: 'xyz' })).toEqual([
      '锚点密钥不是 64 位十六进制',
    ])
    expect(anchorProblems(heldC, 3, { block_number: 2, height: HEIGHT + 1, key: c[2] ?? '' })).toEqual([])
  })

  it('fails a block number that is not the held chain’s, or a height the held chain does not cover', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const shifted = await run(input(p, { held: { ...held(p), start_height: HEIGHT - 2 } }))
    expect(step(shifted, 'chain')[0]?.ok).toBe(false)
    // The held chain has 4 links: block 5 is beyond it, and nothing is walked.
    const beyond = await run(input(p, { held: { ...held(p), start_height: HEIGHT - 5 } }))
    expect(step(beyond, 'chain')).toHaveLength(1)
    expect(step(beyond, 'chain')[0]?.detail).toContain('不在本机承诺覆盖的区块内')
    // However long a chain the commitment claims, the browser walks at most MAX_WALK steps.
    const far = { ...held(p), chain_length: 2 * MAX_WALK, start_height: HEIGHT - MAX_WALK - 1 }
    const tooLong = await run(input({ ...p, block_number: MAX_WALK + 1 }, { held: far }))
    expect(step(tooLong, 'chain')).toEqual([expect.objectContaining({ ok: false })])
    expect(step(tooLong, 'chain')[0]?.detail).toContain(`超出浏览器验证的上限（${MAX_WALK} 步）`)
  })

  it("fails another round's proof, however consistent in itself", async () => {
    const p = await proof('qukuai', [5, 3, 5], {
      big_small: 'big',
      odd_even: 'odd',
      lucky: 'lucky',
      banker_player: 'player',
    })
    // The page asks for the next block's round; the server answers with this one's proof.
    const other = await run(input(p, { page: { game: 'qukuai', roundId: String(HEIGHT + 1) } }))
    expect(step(other, 'round')[0]?.ok).toBe(false)
    expect(step(other, 'round')[0]?.detail).toContain(`证明是第 ${HEIGHT} 期的，本页是第 ${HEIGHT + 1} 期`)
    expect(other.filter((s) => s.kind !== 'round').every((s) => s.ok)).toBe(true)
    expect(allOk(other)).toBe(false)
    expect(allOk(await run(input(p, { page: { game: 'hassize', roundId: String(HEIGHT) } })))).toBe(false)
  })

  it('checks the round against the height its id names and the block time', () => {
    const result = {
      game: 'qukuai' as const,
      round_id: '7',
      height: 7,
      block_hash: HASH,
      draw_at: 21_000,
      numbers: [],
      labels: {},
    }
    expect(roundProblems({ game: 'qukuai', roundId: '7' }, result, BLOCK_MS)).toEqual([])
    // Relabelled: the round id is the page's, the height is another round's.
    expect(roundProblems({ game: 'qukuai', roundId: '8' }, { ...result, round_id: '8' }, BLOCK_MS)).toEqual([
      '第 8 期应由区块 8 开奖，证明的是区块 7',
    ])
    expect(
      roundProblems({ game: 'qukuai', roundId: '7' }, { ...result, draw_at: 24_000 }, BLOCK_MS),
    ).toHaveLength(1)
    // A lottery issue draws on a block in the minute after its own.
    const lottery = { ...result, game: 'kuaisan' as const, round_id: ISSUE, height: HEIGHT, draw_at: DRAW_AT }
    expect(roundProblems({ game: 'kuaisan', roundId: ISSUE }, lottery, BLOCK_MS)).toEqual([])
    const next = issueOfMinute(DRAW_AT)
    expect(
      roundProblems({ game: 'kuaisan', roundId: next }, { ...lottery, round_id: next }, BLOCK_MS)[0],
    ).toContain(`第 ${next} 期应在`)
  })

  it('checks the chain against the held commitment, not the one sent with the proof', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    // A server that swapped chains sends a proof that agrees with its own new commitment.
    const swapped: Proof = { ...p, commitment: { ...p.commitment, terminal_hash: 'f'.repeat(64) } }
    expect(allOk(await run(input(swapped, { held: held(p) })))).toBe(true)
    const other = await run(input(p, { held: { ...held(p), terminal_hash: 'e'.repeat(64) } }))
    expect(step(other, 'chain')[0]?.ok).toBe(false)
    expect(allOk(other)).toBe(false)
  })

  it('fails a key from another chain, even one whose proof agrees with its own commitment', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const key = await webCryptoHasher.sha256Hex('another chain')
    const foreign = await withKey(
      { ...p, commitment: { ...p.commitment, terminal_hash: await webCryptoHasher.sha256Hex(key) } },
      key,
    )
    const steps = await run(input(foreign, { held: held(p) }))
    expect(step(steps, 'chain').map((s) => s.ok)).toEqual([false])
    expect(allOk(steps)).toBe(false)
  })

  it('fails the chain when no commitment is held, or when the stored ones are damaged', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const none = await run(input(p, { held: null }))
    expect(step(none, 'chain')[0]?.ok).toBe(false)
    expect(step(none, 'chain')[0]?.detail).toContain('本机没有保存这条链的承诺')
    // A held commitment is no proof while another stored entry is unreadable: that one may have
    // been the first seen for these heights.
    const damaged = await run(input(p, { damaged: true }))
    expect(step(damaged, 'chain')[0]?.detail).toContain('本机保存的承诺已损坏')
    expect(allOk(damaged)).toBe(false)
  })

  it('fails a wrong key, a changed block hash, a wrong result or wrong lottery messages', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    expect(allOk(await run(input({ ...p, key: 'a'.repeat(64) })))).toBe(false)
    const hash = await run(input({ ...p, result: { ...p.result, block_hash: `${HASH.slice(0, -1)}6` } }))
    expect(step(hash, 'block-hash')[0]?.ok).toBe(false)
    expect(allOk(hash)).toBe(false)
    const wrong = await run(input({ ...p, result: { ...p.result, numbers: [1, 1, 1] } }))
    expect(step(wrong, 'numbers')[0]?.ok).toBe(false)
    const messages = await run(input({ ...p, lottery_messages: [] }))
    expect(step(messages, 'floats')[0]?.ok).toBe(false)
  })
})

describe("verify against the player's settled bets", () => {
  it('passes a bet settled as the recomputed numbers decide, and shows no bet step when there is none', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const steps = await run(input(p, { bets: loaded(bet()) }))
    expect(step(steps, 'bets')).toEqual([expect.objectContaining({ ok: true })])
    expect(step(steps, 'bets')[0]?.detail).toBe(
      '小 10.00：记录 已中奖 派彩 19.60；浏览器计算：已中奖 派彩 19.60',
    )
    expect(allOk(steps)).toBe(true)
    expect(step(await run(input(p, { bets: loaded() })), 'bets')).toEqual([])
    expect(step(await run(input(p)), 'bets')).toEqual([])
    // Another round's bet in the list is not this round's.
    expect(step(await run(input(p, { bets: loaded(bet({ round_id: '1' })) })), 'bets')).toEqual([])
  })

  it('fails when the settlement disagrees with the numbers, even if the server labels agree with the settlement', async () => {
    // The server claims big and settled the player's small bet as lost: its labels and the bet agree,
    // the block hash does not.
    const p = await proof('kuaisan', [2, 3, 3], { big_small: 'big', odd_even: 'even' })
    const steps = await run(input(p, { bets: loaded(bet({ status: 'lost', payout: '0.00' })) }))
    expect(step(steps, 'bets')[0]?.ok).toBe(false)
    expect(step(steps, 'bets')[0]?.detail).toContain('结算与开奖号码不符')
    expect(allOk(steps)).toBe(false)
    // Honest labels, dishonest settlement.
    const honest = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    const lost = await run(input(honest, { bets: loaded(bet({ status: 'lost', payout: '0.00' })) }))
    expect(step(lost, 'labels')[0]?.ok).toBe(true)
    expect(allOk(lost)).toBe(false)
  })

  it('fails a wrong payout, a bet on another block, an unreadable history', async () => {
    const p = await proof('kuaisan', [2, 3, 3], KUAISAN_LABELS)
    expect(allOk(await run(input(p, { bets: loaded(bet({ payout: '19.00' })) })))).toBe(false)
    expect(allOk(await run(input(p, { bets: loaded(bet({ height: HEIGHT + 20 })) })))).toBe(false)
    const failed = await run(input(p, { bets: { kind: 'failed', message: '网络错误' } }))
    expect(step(failed, 'bets')[0]?.detail).toContain('无法读取你的投注记录')
    expect(allOk(failed)).toBe(false)
  })

  it('settles fast three big/small on a triple by the published rule, and fails when it is unknown', () => {
    const triple = { numbers: [5, 5, 5], labels: { big_small: 'big', odd_even: 'odd' } }
    const big = bet({ bet_type: 'big', label: '大', status: 'won', payout: '19.60' })
    expect(betProblems(big, HEIGHT, triple, false).ok).toBe(true)
    expect(betProblems(big, HEIGHT, triple, true).ok).toBe(false)
    expect(betProblems({ ...big, status: 'lost', payout: '0.00' }, HEIGHT, triple, true).ok).toBe(true)
    expect(betProblems(big, HEIGHT, triple, null)).toEqual({
      line: expect.stringContaining('无法读取豹子是否通杀大小的规则'),
      ok: false,
    })
    // Without a triple the rule does not matter.
    const plain = { numbers: [5, 5, 4], labels: {} }
    expect(betProblems(big, HEIGHT, plain, null).ok).toBe(true)
  })

  it('leaves a pending bet uncompared, and fails an unknown bet type', () => {
    const outcome = { numbers: [2, 3, 3], labels: {} }
    expect(betProblems(bet({ status: 'pending', payout: '0.00' }), HEIGHT, outcome, false)).toEqual({
      line: '小 10.00：记录 待开奖（尚未结算，无法比对）',
      ok: true,
    })
    expect(betProblems(bet({ bet_type: 'nonsense' }), HEIGHT, outcome, false).ok).toBe(false)
  })
})
