import { formatDateTime } from '@client/lib/date-time'
import type { DataOf } from '@shared/contract/endpoint'
import { BET_STATUS_LABEL, type betItemSchema, type verifyRound } from '@shared/contract/games'
import { type AsyncHasher, blockHash, lotteryFloats, lotteryMessage, walkChain } from '@shared/games/chain'
import type { GameCode } from '@shared/games/config'
import { oddsToMilli } from '@shared/games/config'
import {
  type BetResult,
  drawOutcome,
  FLOATS_NEEDED,
  type Outcome,
  payoutMicro,
  type SettleRules,
  settleBet,
  UnknownBetTypeError,
} from '@shared/games/outcome'
import { isLottery, minuteOfIssue } from '@shared/games/rounds'
import { formatMoney, parseMicro } from '@shared/money'
import type { z } from 'zod'
import { covers, type HeldCommitment } from './commitment'
import { GAME_NAMES } from './game-links'
import { labelWord } from './labels'

/**
 * Recomputes a drawn round from what the server revealed, one visible step at a time: the proof is
 * for the round on the page; the key belongs to the chain whose commitment this device holds (first
 * seen on a game page, before the round), reached through anchors that each lie on that chain
 * between the round and the commitment; the block hash follows from the key, the numbers from the
 * block hash, the labels from the numbers; and the player's own settled bets of the round, as their
 * bet history records them, are what those numbers decide. Nothing here trusts the server's own
 * result, its current commitment or the labels it sends except to compare with them.
 */

export type Proof = DataOf<typeof verifyRound>
export type BetRecord = z.infer<typeof betItemSchema>

export type StepKind = 'round' | 'chain' | 'block-hash' | 'floats' | 'numbers' | 'labels' | 'bets'

export interface VerifyStep {
  kind: StepKind
  title: string
  /** What was computed, shown as is. */
  detail: string
  ok: boolean
}

/** The round the page asks about. */
export interface PageRound {
  game: GameCode
  roundId: string
}

/** The player's bets of the round, read from their bet history. */
export type PlayerBets =
  /** Not logged in: there is no bet history to compare with. */
  | { kind: 'logged-out' }
  | { kind: 'failed'; message: string }
  | {
      kind: 'loaded'
      bets: readonly BetRecord[]
      /** Fast three's published rule (a triple loses big and small); null when it could not be read. */
      tripleVoidsBigSmall: boolean | null
    }

export interface VerifyInput {
  page: PageRound
  proof: Proof
  /** The commitment this device holds for the round's height, or null. */
  held: HeldCommitment | null
  /** Stored commitments that could not be read: then no held one can be trusted to decide a height. */
  damaged: boolean
  bets: PlayerBets
}

const MINUTE = 60_000
/**
 * The most sha256 steps a proof may ask of the browser, whatever chain length the commitment
 * claims: ten times the default chain (`GAME_CHAIN_LENGTH`), about a year of 3 s blocks.
 */
export const MAX_WALK = 10_000_000
const HEX64 = /^[0-9a-f]{64}$/

/**
 * What is wrong with the proof's round, or nothing: it must be the page's game and round, at the
 * height that round is drawn on (the height itself for hash games; for a lottery issue, a block in
 * the minute after the issue's minute, one draw a minute), drawn when that block comes.
 */
export function roundProblems(page: PageRound, result: Proof['result'], blockMs: number): string[] {
  const out: string[] = []
  if (result.game !== page.game)
    out.push(`证明是${GAME_NAMES[result.game] ?? result.game}的，本页是${GAME_NAMES[page.game]}`)
  if (result.round_id !== page.roundId)
    out.push(`证明是第 ${result.round_id} 期的，本页是第 ${page.roundId} 期`)
  if (isLottery(page.game)) {
    const minute = minuteOfIssue(page.roundId)
    const at = result.height * blockMs
    if (minute === null) out.push(`第 ${page.roundId} 期不是有效期号`)
    else if (at < minute + MINUTE || at >= minute + 2 * MINUTE)
      out.push(
        `第 ${page.roundId} 期应在 ${formatDateTime(minute + MINUTE)} 起一分钟内的区块开奖，证明的区块 ${result.height} 不在其中`,
      )
  } else if (String(result.height) !== page.roundId) {
    out.push(`第 ${page.roundId} 期应由区块 ${page.roundId} 开奖，证明的是区块 ${result.height}`)
  }
  if (result.draw_at !== result.height * blockMs)
    out.push(
      `区块 ${result.height} 应在 ${formatDateTime(result.height * blockMs)} 产生，证明写的是 ${formatDateTime(result.draw_at)}`,
    )
  return out
}

function roundStep({ page, proof, held }: VerifyInput): VerifyStep {
  const { result } = proof
  const problems = roundProblems(page, result, held?.block_ms ?? proof.commitment.block_ms)
  return {
    kind: 'round',
    title: `证明对应本页：${GAME_NAMES[page.game]} 第 ${page.roundId} 期`,
    detail: `证明：${GAME_NAMES[result.game] ?? result.game} 第 ${result.round_id} 期，区块 ${result.height}，${formatDateTime(result.draw_at)}${
      problems.length ? `；${problems.join('；')}` : ''
    }`,
    ok: problems.length === 0,
  }
}

/**
 * What is wrong with one anchor, reached from block `from`: it must be a committed block (1 or
 * more, at the height the held chain gives it) nearer the commitment than `from`, so the walk to it
 * is a positive number of steps, at most the blocks between `from` and the commitment.
 */
export function anchorProblems(
  held: Pick<HeldCommitment, 'start_height'>,
  from: number,
  anchor: Proof['anchors'][number],
): string[] {
  const out: string[] = []
  const n = anchor.block_number
  if (!Number.isSafeInteger(n) || n < 1) out.push(`锚点区块 ${n} 不是承诺内的区块（应从 1 起）`)
  else if (n >= from) out.push(`锚点区块 ${n} 应在区块 ${from} 之前（步数 ${from - n} 应为正数）`)
  if (anchor.height !== held.start_height + n)
    out.push(`锚点高度 ${anchor.height} 与区块 ${n} 不符（应为 ${held.start_height + n}）`)
  if (!HEX64.test(anchor.key)) out.push('锚点密钥不是 64 位十六进制')
  return out
}

/**
 * The chain, from the round's key through the anchors (closest first) to the terminal hash held on
 * this device. The block number is counted from the held chain's start, not taken from the proof,
 * and nothing is hashed until a link is known to be a bounded, positive walk.
 */
async function chainSteps({ proof, held, damaged }: VerifyInput, hasher: AsyncHasher): Promise<VerifyStep[]> {
  const height = proof.result.height
  if (damaged)
    return [
      {
        kind: 'chain',
        title: '密钥链：本机保存的承诺已损坏',
        detail: '本机保存的承诺已损坏：有无法读取的记录，无法确定这条链开局前公布的终点哈希，密钥链无法验证',
        ok: false,
      },
    ]
  if (!held)
    return [
      {
        kind: 'chain',
        title: '密钥链：本机没有这条链的承诺',
        detail: `区块高度 ${height}；本机没有保存这条链的承诺（先打开任一游戏页面，本机会记下开局前公布的终点哈希）`,
        ok: false,
      },
    ]
  const k = height - held.start_height
  const intro = `高度 ${height} 是本机承诺（${formatDateTime(held.seen_at)} 首次看到）的区块 ${k}`
  const startProblems: string[] = []
  if (!covers(held, height))
    startProblems.push(
      `高度 ${height} 不在本机承诺覆盖的区块内（高度 ${held.start_height + 1}…${held.start_height + held.chain_length}）`,
    )
  else if (k > MAX_WALK) startProblems.push(`区块 ${k} 超出浏览器验证的上限（${MAX_WALK} 步）`)
  if (proof.block_number !== k) startProblems.push(`服务器给出区块 ${proof.block_number}`)
  if (!HEX64.test(proof.key)) startProblems.push('公布的密钥不是 64 位十六进制')
  if (startProblems.length)
    return [
      {
        kind: 'chain',
        title: '密钥链：区块位置',
        detail: `${intro}；${startProblems.join('；')}`,
        ok: false,
      },
    ]

  const steps: VerifyStep[] = []
  let from = { block: k, key: proof.key }
  for (const anchor of proof.anchors) {
    const problems = anchorProblems(held, from.block, anchor)
    const title = `密钥链：区块 ${from.block} → 区块 ${anchor.block_number}（高度 ${anchor.height}）`
    if (problems.length) {
      steps.push({ kind: 'chain', title, detail: problems.join('；'), ok: false })
      return steps
    }
    const walked = await walkChain(hasher, from.key, from.block - anchor.block_number)
    steps.push({
      kind: 'chain',
      title,
      detail: `sha256 × ${from.block - anchor.block_number} = ${walked}`,
      ok: walked === anchor.key,
    })
    from = { block: anchor.block_number, key: anchor.key }
  }
  const terminal = await walkChain(hasher, from.key, from.block)
  steps.push({
    kind: 'chain',
    title: `密钥链：区块 ${from.block} → 本机保存的承诺（${formatDateTime(held.seen_at)} 首次看到）`,
    detail: `sha256 × ${from.block} = ${terminal}（本机保存：${held.terminal_hash}）`,
    ok: terminal === held.terminal_hash,
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

const rulesWith = (tripleVoidsBigSmall: boolean): SettleRules => ({
  games: { kuaisan: { triple_voids_big_small: tripleVoidsBigSmall } },
})
const RULES = { voids: rulesWith(true), plain: rulesWith(false) }

/**
 * How a bet settles on the recomputed outcome, or why it cannot be said. Only fast three's
 * big/small on a triple depends on a rule, read from the published rules.
 */
function expectedResult(
  bet: BetRecord,
  outcome: Outcome,
  tripleVoidsBigSmall: boolean | null,
): BetResult | string {
  try {
    const plain = settleBet(bet.game, bet.bet_type, outcome, RULES.plain)
    const voids = settleBet(bet.game, bet.bet_type, outcome, RULES.voids)
    if (plain === voids) return plain
    if (tripleVoidsBigSmall === null) return '无法读取豹子是否通杀大小的规则'
    return tripleVoidsBigSmall ? voids : plain
  } catch (err) {
    if (err instanceof UnknownBetTypeError) return `未知的投注项 ${bet.bet_type}`
    throw err
  }
}

/**
 * One settled bet against the outcome this browser computed: the record must name the round's
 * block, and its status and payout must be what the numbers decide at the bet's odds.
 */
export function betProblems(
  bet: BetRecord,
  height: number,
  outcome: Outcome,
  tripleVoidsBigSmall: boolean | null,
): { line: string; ok: boolean } {
  const head = `${bet.label} ${bet.stake}：记录 ${BET_STATUS_LABEL[bet.status]}${
    bet.status === 'pending' ? '' : ` 派彩 ${bet.payout}`
  }`
  const problems: string[] = []
  if (bet.height !== height) problems.push(`注单记录的开奖区块是 ${bet.height}，证明的是 ${height}`)
  if (bet.status === 'pending') return { line: `${head}（尚未结算，无法比对）`, ok: problems.length === 0 }
  const expected = expectedResult(bet, outcome, tripleVoidsBigSmall)
  if (expected !== 'won' && expected !== 'lost' && expected !== 'draw') {
    problems.push(expected)
    return { line: `${head}；${problems.join('；')}`, ok: false }
  }
  const stake = parseMicro(bet.stake)
  const payout = parseMicro(bet.payout)
  const expectedPayout = stake === null ? null : payoutMicro(expected, stake, oddsToMilli(bet.odds))
  const computed = `浏览器计算：${BET_STATUS_LABEL[expected]} 派彩 ${expectedPayout === null ? '?' : formatMoney(expectedPayout)}`
  if (expected !== bet.status) problems.push(`结算与开奖号码不符`)
  else if (expectedPayout === null || payout !== expectedPayout) problems.push(`派彩与赔率 ${bet.odds} 不符`)
  return {
    line: `${head}；${computed}${problems.length ? `；${problems.join('；')}` : ''}`,
    ok: problems.length === 0,
  }
}

function betsStep(input: VerifyInput, outcome: Outcome): VerifyStep | null {
  const { bets, page, proof } = input
  const title = '你的投注：按浏览器算出的开奖号码结算（投注记录）'
  if (bets.kind === 'logged-out') return null
  if (bets.kind === 'failed')
    return { kind: 'bets', title, detail: `无法读取你的投注记录，结算无法比对：${bets.message}`, ok: false }
  const mine = bets.bets.filter((b) => b.game === page.game && b.round_id === page.roundId)
  if (mine.length === 0) return null
  const lines = mine.map((b) => betProblems(b, proof.result.height, outcome, bets.tripleVoidsBigSmall))
  return { kind: 'bets', title, detail: lines.map((l) => l.line).join('\n'), ok: lines.every((l) => l.ok) }
}

export async function verifySteps(input: VerifyInput, hasher: AsyncHasher): Promise<VerifyStep[]> {
  const { proof, page } = input
  const { result } = proof
  // Everything is recomputed for the page's game, whatever game the proof names.
  const game = page.game
  const steps = [roundStep(input), ...(await chainSteps(input, hasher))]
  const hash = await blockHash(hasher, result.height, proof.key)
  steps.push({
    kind: 'block-hash',
    title: `区块哈希 = hex16(${result.height}) + HMAC-SHA256(密钥, "${result.height}") 前 48 位`,
    detail: `${hash}${hash === result.block_hash ? '' : `（服务器：${result.block_hash}）`}`,
    ok: hash === result.block_hash && proof.hmac_message === String(result.height),
  })
  let floats: number[] = []
  if (isLottery(game)) {
    floats = await lotteryFloats(hasher, hash, game, result.height, FLOATS_NEEDED[game])
    const messages = Array.from({ length: Math.ceil(floats.length / 8) }, (_, r) =>
      lotteryMessage(game, result.height, r),
    )
    steps.push({
      kind: 'floats',
      title: `开奖随机数 = HMAC-SHA256(区块哈希, ${messages.map((m) => `"${m}"`).join('、')})`,
      detail: floats.map((f) => f.toFixed(6)).join(', '),
      ok:
        messages.length === proof.lottery_messages.length &&
        messages.every((m, i) => proof.lottery_messages[i] === m),
    })
  }
  const outcome = drawOutcome(game, hash, floats)
  steps.push({
    kind: 'numbers',
    title: '开奖号码',
    detail: `${outcome.numbers.join(', ')}（服务器：${result.numbers.join(', ')}）`,
    ok: sameNumbers(outcome.numbers, result.numbers),
  })
  steps.push({
    kind: 'labels',
    title: '开奖结果（大小、单双、幸运、庄闲等）',
    detail: `${labelText(outcome.labels)}（服务器：${labelText(result.labels)}）`,
    ok: sameLabels(outcome.labels, result.labels),
  })
  const bets = betsStep(input, outcome)
  if (bets) steps.push(bets)
  return steps
}

export const allOk = (steps: readonly VerifyStep[]): boolean => steps.length > 0 && steps.every((s) => s.ok)
