import type { DataOf } from '../../../../shared/contract/endpoint'
import type { verifyRound } from '../../../../shared/contract/games'
import {
  type AsyncHasher,
  blockHash,
  lotteryFloats,
  lotteryMessage,
  walkChain,
} from '../../../../shared/games/chain'
import { drawOutcome, FLOATS_NEEDED } from '../../../../shared/games/outcome'

/**
 * Recomputes a drawn round from what the server revealed, one visible step at a time: the key
 * belongs to the committed chain, the block hash follows from the key, and the result follows
 * from the block hash. Nothing here trusts the server's own result except to compare with it.
 */

export type Proof = DataOf<typeof verifyRound>

export interface VerifyStep {
  title: string
  /** What was computed, shown as is. */
  detail: string
  ok: boolean
}

const LOTTERY_GAMES = new Set(['kuaisan', 'shishicai', 'saiche'])

/** Each link of the proof: the key, then the anchors closest first, then the terminal hash. */
async function chainSteps(proof: Proof, hasher: AsyncHasher): Promise<VerifyStep[]> {
  const steps: VerifyStep[] = []
  let from = { block: proof.block_number, key: proof.key }
  for (const anchor of proof.anchors) {
    const walked = await walkChain(hasher, from.key, from.block - anchor.block_number)
    steps.push({
      title: `密钥链：区块 ${from.block} → 区块 ${anchor.block_number}（高度 ${anchor.height}）`,
      detail: `sha256 × ${from.block - anchor.block_number} = ${walked}`,
      ok: walked === anchor.key,
    })
    from = { block: anchor.block_number, key: anchor.key }
  }
  const terminal = await walkChain(hasher, from.key, from.block)
  steps.push({
    title: `密钥链：区块 ${from.block} → 公布的终点哈希`,
    detail: `sha256 × ${from.block} = ${terminal}`,
    ok: terminal === proof.commitment.terminal_hash,
  })
  return steps
}

const sameNumbers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((n, i) => n === b[i])

export async function verifySteps(proof: Proof, hasher: AsyncHasher): Promise<VerifyStep[]> {
  const { result } = proof
  const steps = await chainSteps(proof, hasher)
  const hash = await blockHash(hasher, result.height, proof.key)
  steps.push({
    title: `区块哈希 = hex16(${result.height}) + HMAC-SHA256(密钥, "${result.height}") 前 48 位`,
    detail: hash,
    ok: hash === result.block_hash && proof.hmac_message === String(result.height),
  })
  let floats: number[] = []
  if (LOTTERY_GAMES.has(result.game)) {
    floats = await lotteryFloats(hasher, hash, result.game, result.height, FLOATS_NEEDED[result.game])
    const messages = Array.from({ length: Math.ceil(floats.length / 8) }, (_, r) =>
      lotteryMessage(result.game, result.height, r),
    )
    steps.push({
      title: `开奖随机数 = HMAC-SHA256(区块哈希, ${messages.map((m) => `"${m}"`).join('、')})`,
      detail: floats.map((f) => f.toFixed(6)).join(', '),
      ok: messages.every(
        (m, i) => proof.lottery_messages[i] === undefined || proof.lottery_messages[i] === m,
      ),
    })
  }
  const outcome = drawOutcome(result.game, hash, floats)
  steps.push({
    title: '开奖结果',
    detail: `${outcome.numbers.join(', ')}（服务器：${result.numbers.join(', ')}）`,
    ok: sameNumbers(outcome.numbers, result.numbers),
  })
  return steps
}

/** The numbers the browser computed, for the summary line. */
export const allOk = (steps: readonly VerifyStep[]): boolean => steps.length > 0 && steps.every((s) => s.ok)
