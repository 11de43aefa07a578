import { formatDateTime } from '@client/lib/date-time'
import type { DataOf } from '@shared/contract/endpoint'
import type { verifyRound } from '@shared/contract/games'
import { type AsyncHasher, blockHash, lotteryFloats, lotteryMessage, walkChain } from '@shared/games/chain'
import { drawOutcome, FLOATS_NEEDED } from '@shared/games/outcome'
import type { HeldCommitment } from './commitment'
import { labelWord } from './labels'

/**
 * Recomputes a drawn round from what the server revealed, one visible step at a time: the key
 * belongs to the chain whose commitment this device holds (first seen on a game page, before the
 * round), the block hash follows from the key, the numbers from the block hash, and the labels
 * that decided the bets from the numbers. Nothing here trusts the server's own result or its
 * current commitment except to compare with them.
 */

export type Proof = DataOf<typeof verifyRound>

export type StepKind = 'chain' | 'block-hash' | 'floats' | 'numbers' | 'labels'

export interface VerifyStep {
  kind: StepKind
  title: string
  /** What was computed, shown as is. */
  detail: string
  ok: boolean
}

const LOTTERY_GAMES = new Set(['kuaisan', 'shishicai', 'saiche'])

/**
 * Each link of the proof: the key, then the anchors closest first, then the terminal hash held on
 * this device. The block number is counted from the held chain's start, not taken from the proof.
 */
async function chainSteps(
  proof: Proof,
  held: HeldCommitment | null,
  hasher: AsyncHasher,
): Promise<VerifyStep[]> {
  const steps: VerifyStep[] = []
  let from = { block: proof.block_number, key: proof.key }
  for (const anchor of proof.anchors) {
    const walked = await walkChain(hasher, from.key, from.block - anchor.block_number)
    steps.push({
      kind: 'chain',
      title: `密钥链：区块 ${from.block} → 区块 ${anchor.block_number}（高度 ${anchor.height}）`,
      detail: `sha256 × ${from.block - anchor.block_number} = ${walked}`,
      ok: walked === anchor.key && anchor.block_number < from.block,
    })
    from = { block: anchor.block_number, key: anchor.key }
  }
  const terminal = await walkChain(hasher, from.key, Math.max(0, from.block))
  if (!held) {
    steps.push({
      kind: 'chain',
      title: `密钥链：区块 ${from.block} → 本机保存的承诺`,
      detail: `sha256 × ${from.block} = ${terminal}；本机没有保存这条链的承诺（先打开任一游戏页面，本机会记下开局前公布的终点哈希）`,
      ok: false,
    })
    return steps
  }
  const expectedBlock = proof.result.height - held.start_height
  steps.push({
    kind: 'chain',
    title: `密钥链：区块 ${from.block} → 本机保存的承诺（${formatDateTime(held.seen_at)} 首次看到）`,
    detail: `sha256 × ${from.block} = ${terminal}（本机保存：${held.terminal_hash}${
      expectedBlock === proof.block_number
        ? ''
        : `；高度 ${proof.result.height} 应为区块 ${expectedBlock}，服务器给出 ${proof.block_number}`
    }）`,
    ok: terminal === held.terminal_hash && expectedBlock === proof.block_number,
  })
  return steps
}

const sameNumbers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((n, i) => n === b[i])

const labelText = (labels: Record<string, string>): string =>
  Object.values(labels).map(labelWord).join(' ') || '无'

const sameLabels = (a: Record<string, string>, b: Record<string, string>): boolean => {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k])
}

export async function verifySteps(
  proof: Proof,
  held: HeldCommitment | null,
  hasher: AsyncHasher,
): Promise<VerifyStep[]> {
  const { result } = proof
  const steps = await chainSteps(proof, held, hasher)
  const hash = await blockHash(hasher, result.height, proof.key)
  steps.push({
    kind: 'block-hash',
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
      kind: 'floats',
      title: `开奖随机数 = HMAC-SHA256(区块哈希, ${messages.map((m) => `"${m}"`).join('、')})`,
      detail: floats.map((f) => f.toFixed(6)).join(', '),
      ok: messages.every(
        (m, i) => proof.lottery_messages[i] === undefined || proof.lottery_messages[i] === m,
      ),
    })
  }
  const outcome = drawOutcome(result.game, hash, floats)
  steps.push({
    kind: 'numbers',
    title: '开奖号码',
    detail: `${outcome.numbers.join(', ')}（服务器：${result.numbers.join(', ')}）`,
    ok: sameNumbers(outcome.numbers, result.numbers),
  })
  steps.push({
    kind: 'labels',
    title: '开奖结果（决定投注输赢的大小、单双、幸运、庄闲等）',
    detail: `${labelText(outcome.labels)}（服务器：${labelText(result.labels)}）`,
    ok: sameLabels(outcome.labels, result.labels),
  })
  return steps
}

export const allOk = (steps: readonly VerifyStep[]): boolean => steps.length > 0 && steps.every((s) => s.ok)
