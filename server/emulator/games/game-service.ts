import type { FastifyBaseLogger } from 'fastify'
import type { z } from 'zod'
import { dayRange, startOfDay } from '../../../shared/business-day'
import type {
  betItemSchema,
  commitmentSchema,
  drawResultSchema,
  gameSummarySchema,
  transferSchema,
} from '../../../shared/contract/games'
import { CODE } from '../../../shared/envelope'
import { oppositeOf } from '../../../shared/games/bet-types'
import { lotteryFloatsSync, lotteryMessage, roundsFor } from '../../../shared/games/chain'
import {
  GAME_CODES,
  type GameCode,
  type GamesConfig,
  gameCodeSchema,
  milliToOdds,
} from '../../../shared/games/config'
import { type PricedBet, pricedBets } from '../../../shared/games/odds'
import {
  type BetResult,
  drawOutcome,
  FLOATS_NEEDED,
  type Outcome,
  settlerFor,
} from '../../../shared/games/outcome'
import {
  currentRound,
  heightAt,
  isLottery,
  nextRound,
  type Round,
  roundById,
  roundState,
  roundsDrawnIn,
} from '../../../shared/games/rounds'
import { TRANSFER_KINDS, type TransferKind, transferSide } from '../../../shared/games/transfer'
import { formatMoney, toMicro } from '../../../shared/money'
import { type Db, immediate } from '../../db/database'
import { ApiError, fail, notFound } from '../../http/api-error'
import type { EmuClock } from '../clock'
import { InsufficientFundsError, type LedgerRepository } from '../ledger/ledger-repository'
import type { ProtectionGuard } from '../protection/protection-guard'
import { BetAddressRepository, type BetAddressRow } from './bet-address-repository'
import { ChainStore } from './chain-store'
import { type BetRow, type DrawRow, GameRepository, type TransferRow } from './game-repository'
import { nodeHasher } from './node-hasher'

type BetItem = z.infer<typeof betItemSchema>
type DrawResult = z.infer<typeof drawResultSchema>

export const GAME_MSG = {
  noRound: '期号不存在',
  drawn: (id: string) => `第 ${id} 期已开奖`,
  sealed: (id: string) => `第 ${id} 期已封盘，请投注下一期`,
  notOpen: (id: string) => `第 ${id} 期尚未开放投注`,
  unknownType: (t: string) => `未知的投注项：${t}`,
  belowMin: (min: string) => `单注金额不能低于 ${min}`,
  aboveMax: (label: string, max: string) => `${label} 本期累计投注不能超过 ${max}`,
  bothSides: (a: string, b: string) => `同一期不能同时投注 ${a} 和 ${b}`,
  insufficient: '余额不足',
  notDrawn: '该期尚未开奖',
  addressTaken: '该地址已被绑定',
  addressLimit: '最多绑定 10 个投注地址',
  addressUnknown: '投注地址不存在',
  fromUnbound: '转出地址未绑定到任何账号',
  fromNotYours: '转出地址不属于当前账号',
  toUnknown: '收款地址不存在',
  invalidDigit: '金额个位数无效',
  outOfLimits: '金额超出投注限额',
  chainSpent: '哈希链的区块已用完，请重置模拟器（POST /__emu/reset?scope=*）',
} as const

/** Rounds without bets older than this many per game are not recorded when the clock jumps far ahead. */
const RECENT_ROUNDS = 1000
const MAX_ADDRESSES = 10

const KIND_RULE: Record<TransferKind, string> = {
  big_small: '金额个位数 0–4 为小，5–9 为大',
  odd_even: '金额个位数为单数投单，双数投双',
  banker_player: '金额个位数 1 投庄，2 投闲，3 投和，其它退回',
}

/**
 * The games of the emulator: the chain, draws and settlement (a ticker job that settles whatever
 * is due, each game's due rounds in one transaction with its cursor, so every round is settled
 * exactly once even across a restart), placing bets, history, rules, verification, bet addresses
 * and transfer bets.
 *
 * Money: each bet debits its stake through the ledger when placed; a draw credits each player one
 * 'payout' row (Σ stake × odds over their winning bets, each rounded down to the micro-unit) and one
 * 'refund' row (stakes of bets ending in a draw) per round.
 */
export class GameService {
  readonly chain: ChainStore
  readonly repo: GameRepository
  readonly addresses: BetAddressRepository
  private readonly types = new Map<GameCode, Map<string, PricedBet>>()
  /** Called after a round's bets are marked settled, before they are paid; lets a test stop a draw halfway, as a crash would. */
  afterBetsSettled: ((round: Round) => void) | null = null
  /** Nothing is due before this time (the earliest next draw after the last catch-up), unless the clock went back. */
  private quietUntil = Number.NEGATIVE_INFINITY
  private lastCatchUp = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
    private readonly ledger: LedgerRepository,
    readonly config: GamesConfig,
    chainLength: number,
    private readonly log: FastifyBaseLogger,
    private readonly protection: ProtectionGuard,
  ) {
    this.chain = new ChainStore(db, chainLength)
    this.repo = new GameRepository(db)
    this.addresses = new BetAddressRepository(db)
    for (const g of GAME_CODES) this.types.set(g, new Map(pricedBets(g, config).map((b) => [b.type, b])))
  }

  // ── chain ──────────────────────────────────────────────────────────────────────────────────

  /** The chain, made on first use (N hashes: about 2 s for a million links). */
  ensureChain() {
    const have = this.chain.get()
    if (have) return have
    const t = Date.now()
    // The start is read after the links are made: block 1 draws after the commitment is published.
    const made = this.chain.ensure(() => {
      const now = this.clock.now()
      return { height: heightAt(now, this.config), now }
    })
    this.log.info({ links: made.length, ms: Date.now() - t }, 'games: committed a new hash chain')
    return made
  }

  commitment(): z.infer<typeof commitmentSchema> {
    const c = this.ensureChain()
    return {
      terminal_hash: c.terminal,
      chain_length: c.length,
      start_height: c.start_height,
      block_ms: this.config.block_ms,
      created_at: c.created_at,
    }
  }

  private covered(round: Round): boolean {
    return this.chain.blockNumber(round.height) !== null
  }

  /** The round lies beyond the chain's last block (N blocks after its start). */
  private chainSpent(round: Round): boolean {
    const c = this.chain.get()
    return c !== null && round.height - c.start_height > c.length
  }

  /** What a round's block decided. */
  outcomeOf(round: Round): { hash: string; outcome: Outcome } {
    const hash = this.chain.blockHash(round.height)
    const floats = lotteryFloatsSync(nodeHasher, hash, round.game, round.height, FLOATS_NEEDED[round.game])
    return { hash, outcome: drawOutcome(round.game, hash, floats) }
  }

  // ── draws and settlement ───────────────────────────────────────────────────────────────────

  /** Draws and settles every round due by `now` (idempotent: the ticker job and read paths call it). */
  catchUp(now: number): void {
    if (now >= this.lastCatchUp && now < this.quietUntil) return
    const chain = this.chain.get()
    if (!chain) return
    const chainStart = chain.start_height * this.config.block_ms
    let settled = false
    for (const game of GAME_CODES) {
      const cursor = this.repo.cursor(game) ?? chainStart
      const pending = this.repo.pendingRoundsDue(game, now)
      if (now <= cursor && pending.length === 0) continue
      immediate(this.db, () => {
        // Re-read inside the write lock: another process may have drawn meanwhile.
        const from = this.repo.cursor(game) ?? chainStart
        const due = new Map<string, Round>()
        for (const r of roundsDrawnIn(game, from, now, this.config, RECENT_ROUNDS)) due.set(r.roundId, r)
        for (const id of this.repo.pendingRoundsDue(game, now)) {
          const r = roundById(game, id, this.config)
          if (r) due.set(id, r)
        }
        const rounds = [...due.values()].filter((r) => this.covered(r)).sort((a, b) => a.drawAt - b.drawAt)
        for (const r of rounds) this.settleRound(r)
        if (rounds.length > 0) settled = true
        if (now > from) this.repo.setCursor(game, now)
      })
    }
    // Inside a caller's transaction (a call that places a bet, say), what was just settled is undone
    // if that call is refused and rolls back. The next call must then look again, so the quiet window
    // is kept only once the settling is not part of an open transaction.
    if (settled && this.db.inTransaction) return
    this.lastCatchUp = now
    this.quietUntil = Math.min(...GAME_CODES.map((g) => currentRound(g, now, this.config).drawAt))
  }

  /**
   * Records a round's draw and settles its pending bets; runs inside the caller's transaction.
   * Every bet of one type settles alike, so the draw is worked out per bet type here and applied
   * to all the round's bets by one statement, each bet's payout rounded down on its own.
   * Each player then gets one 'payout' and one 'refund' ledger row for the round.
   */
  private settleRound(round: Round): void {
    const { hash, outcome } = this.outcomeOf(round)
    const results = new Map<string, BetResult>()
    for (const { type } of pricedBets(round.game, this.config)) {
      results.set(type, settlerFor(round.game, type, this.config)(outcome))
    }
    const settled = this.repo.settleRound({ game: round.game, round: round.roundId }, results, round.drawAt)
    let stake = 0
    let paid = 0
    let count = 0
    const credits = new Map<number, { payout: number; refund: number }>()
    for (const g of settled) {
      stake += g.stakeMicro
      count += g.count
      if (g.payoutMicro === 0) continue
      const c = credits.get(g.playerId) ?? { payout: 0, refund: 0 }
      if (g.result === 'draw') c.refund += g.payoutMicro
      else c.payout += g.payoutMicro
      credits.set(g.playerId, c)
      paid += g.payoutMicro
    }
    if (settled.length > 0) {
      this.afterBetsSettled?.(round)
      const name = this.config.games[round.game].name
      const ref = `round:${round.game}:${round.roundId}`
      const post = (playerId: number, type: 'payout' | 'refund', amountMicro: number, what: string) =>
        this.ledger.post({
          playerId,
          currency: 'USDT',
          type,
          amountMicro,
          ref,
          memo: `${name} 第${round.roundId}期 ${what}`,
          at: round.drawAt,
        })
      for (const [playerId, c] of credits) {
        if (c.payout > 0) post(playerId, 'payout', c.payout, '派奖')
        if (c.refund > 0) post(playerId, 'refund', c.refund, '和局退款')
      }
    }
    this.repo.recordDraw({
      game: round.game,
      round_id: round.roundId,
      height: round.height,
      block_hash: hash,
      numbers: JSON.stringify(outcome.numbers),
      labels: JSON.stringify(outcome.labels),
      draw_at: round.drawAt,
      bet_count: count,
      stake_micro: stake,
      payout_micro: paid,
    })
  }

  // ── reading ────────────────────────────────────────────────────────────────────────────────

  summary(game: GameCode): z.infer<typeof gameSummarySchema> {
    const g = this.config.games[game]
    const first = currentRound(game, 0, this.config)
    return {
      game,
      name: g.name,
      path: `/games/${game}`,
      kind: isLottery(game) ? 'lottery' : 'hash',
      round_ms: nextRound(first, this.config).drawAt - first.drawAt,
      seal_ms: g.seal_ms,
      min_stake: formatMoney(toMicro(g.limits.min_stake)),
      max_stake: formatMoney(toMicro(g.limits.max_stake)),
    }
  }

  /**
   * A round is closed for good once it is drawn: when it has a draw row, or when a later round of
   * the game has one (draws are recorded in order). The clock alone never reopens it — a tester may
   * move the clock back before a round's draw time (docs/game-rules.md, "Sealing").
   */
  private isDrawn(round: Round): boolean {
    const latest = this.repo.latestDraw(round.game)
    return (
      (latest !== undefined && round.drawAt <= latest.draw_at) ||
      this.repo.draw(round.game, round.roundId) !== undefined
    )
  }

  /** The round bets go to now: the first one after the clock that has not been drawn. */
  private openRound(game: GameCode, now: number): Round {
    const byClock = currentRound(game, now, this.config)
    const latest = this.repo.latestDraw(game)
    return latest !== undefined && byClock.drawAt <= latest.draw_at
      ? currentRound(game, latest.draw_at, this.config)
      : byClock
  }

  /** Why a round takes no bet now (drawn, sealed, not yet open, beyond the chain), or null when it is open. */
  private closedReason(round: Round, now: number): string | null {
    if (now >= round.drawAt || this.isDrawn(round)) return GAME_MSG.drawn(round.roundId)
    if (now >= round.sealAt) return GAME_MSG.sealed(round.roundId)
    const latestOpen = nextRound(this.openRound(round.game, now), this.config)
    if (round.drawAt > latestOpen.drawAt) return GAME_MSG.notOpen(round.roundId)
    if (!this.covered(round))
      return this.chainSpent(round) ? GAME_MSG.chainSpent : GAME_MSG.notOpen(round.roundId)
    return null
  }

  /** Every way of betting goes through this (docs/game-rules.md, "Sealing"). */
  private assertOpen(round: Round, now: number): void {
    const reason = this.closedReason(round, now)
    if (reason !== null) throw fail(reason)
  }

  current(game: GameCode) {
    const now = this.clock.now()
    this.ensureChain()
    this.catchUp(now)
    const r = this.openRound(game, now)
    const latest = this.repo.latestDraw(game)
    return {
      ...roundOut(r),
      server_time: now,
      ms_to_seal: Math.max(0, r.sealAt - now),
      ms_to_draw: r.drawAt - now,
      state: roundState(r, now),
      next: roundOut(nextRound(r, this.config)),
      previous: latest ? drawOut(latest) : null,
    }
  }

  results(game: GameCode, page: number, pageSize: number) {
    this.ensureChain()
    this.catchUp(this.clock.now())
    const { rows, total } = this.repo.draws(game, pageSize, (page - 1) * pageSize)
    return { list: rows.map(drawOut), page, page_size: pageSize, total, has_more: page * pageSize < total }
  }

  rules(game: GameCode) {
    return {
      ...this.summary(game),
      bet_types: pricedBets(game, this.config).map((r) => ({
        bet_type: r.type,
        label: r.label,
        group: r.group,
        odds: milliToOdds(r.oddsMilli),
        win_probability: r.winProbability,
        refund_probability: r.refundProbability,
        house_edge: r.houseEdge,
      })),
    }
  }

  verify(game: GameCode, roundId: string) {
    const now = this.clock.now()
    const commitment = this.commitment()
    const round = roundById(game, roundId, this.config)
    if (!round) throw notFound(GAME_MSG.noRound)
    if (now < round.drawAt) throw fail(GAME_MSG.notDrawn)
    const k = this.chain.blockNumber(round.height)
    if (k === null) throw notFound(GAME_MSG.noRound)
    this.catchUp(now)
    const stored = this.repo.draw(game, roundId)
    const { hash, outcome } = stored
      ? {
          hash: stored.block_hash,
          outcome: { numbers: parseNumbers(stored.numbers), labels: parseLabels(stored.labels) },
        }
      : this.outcomeOf(round)
    const anchors: { block_number: number; height: number; key: string }[] = []
    for (let step = 1; k - step >= 1; step *= 10) {
      const n = k - step
      anchors.push({
        block_number: n,
        height: commitment.start_height + n,
        key: this.chain.keyOf(commitment.start_height + n),
      })
    }
    if (k > 1 && anchors.at(-1)?.block_number !== 1)
      anchors.push({
        block_number: 1,
        height: commitment.start_height + 1,
        key: this.chain.keyOf(commitment.start_height + 1),
      })
    return {
      result: {
        game,
        round_id: round.roundId,
        height: round.height,
        block_hash: hash,
        draw_at: round.drawAt,
        ...outcome,
      },
      commitment,
      block_number: k,
      key: this.chain.keyOf(round.height),
      hmac_message: String(round.height),
      lottery_messages: Array.from({ length: roundsFor(FLOATS_NEEDED[game]) }, (_, i) =>
        lotteryMessage(game, round.height, i),
      ),
      anchors,
    }
  }

  // ── betting ────────────────────────────────────────────────────────────────────────────────

  private betType(game: GameCode, type: string): PricedBet {
    const t = this.types.get(game)?.get(type)
    if (!t) throw fail(GAME_MSG.unknownType(type))
    return t
  }

  /** Places bets on an open round: one transaction for the stakes, the bets and their ledger rows. */
  placeBets(
    playerId: number,
    game: GameCode,
    roundId: string,
    items: readonly { bet_type: string; amount: string }[],
  ) {
    const now = this.clock.now()
    this.ensureChain()
    this.catchUp(now)
    const round = roundById(game, roundId, this.config)
    if (!round) throw notFound(GAME_MSG.noRound)
    this.assertOpen(round, now)

    const limits = this.config.games[game].limits
    const min = toMicro(limits.min_stake)
    const max = toMicro(limits.max_stake)
    const wanted = new Map<string, number>()
    for (const item of items) {
      this.betType(game, item.bet_type)
      const amount = toMicro(item.amount)
      if (amount < min) throw fail(GAME_MSG.belowMin(limits.min_stake))
      wanted.set(item.bet_type, (wanted.get(item.bet_type) ?? 0) + amount)
    }
    const name = this.config.games[game].name
    const ids = immediate(this.db, () => {
      // Again inside the write lock: another process may have drawn the round meanwhile.
      this.assertOpen(round, now)
      const held = this.repo.playerRound(playerId, round)
      for (const [type, amount] of wanted) {
        const bt = this.betType(game, type)
        const other = oppositeOf(type)
        if (other && (wanted.has(other) || held.has(other)))
          throw fail(GAME_MSG.bothSides(bt.label, this.betType(game, other).label))
        if ((held.get(type) ?? 0) + amount > max) throw fail(GAME_MSG.aboveMax(bt.label, limits.max_stake))
      }
      this.protection.assertStake(
        playerId,
        [...wanted.values()].reduce((a, b) => a + b, 0),
        now,
      )
      const placed: BetRow[] = []
      let balance = 0
      for (const [type, amount] of wanted) {
        const bt = this.betType(game, type)
        const bet = this.repo.addOrInsertBet({
          playerId,
          game,
          roundId,
          betType: type,
          stakeMicro: amount,
          odds: milliToOdds(bt.oddsMilli),
          source: 'app',
          placedAt: now,
          height: round.height,
          drawAt: round.drawAt,
        })
        balance = this.debit(playerId, amount, bet.id, `${name} 第${roundId}期 ${bt.label}`, now)
        placed.push(bet)
      }
      return { placed, balance }
    })
    return {
      round_id: roundId,
      bets: ids.placed.map((bet) => this.betOut(bet)),
      balance: formatMoney(ids.balance),
    }
  }

  /** Debits a stake through the ledger; returns the balance after it. */
  private debit(playerId: number, amount: number, betId: number, memo: string, at: number): number {
    try {
      return this.ledger.post({
        playerId,
        currency: 'USDT',
        type: 'bet',
        amountMicro: -amount,
        ref: `bet:${betId}`,
        memo,
        at,
      }).balanceAfterMicro
    } catch (err) {
      if (err instanceof InsufficientFundsError) throw fail(GAME_MSG.insufficient)
      throw err
    }
  }

  betOut(b: BetRow): BetItem {
    const game = gameCodeSchema.parse(b.game)
    return {
      id: b.id,
      game,
      game_name: this.config.games[game].name,
      round_id: b.round_id,
      height: b.height,
      bet_type: b.bet_type,
      label: this.types.get(game)?.get(b.bet_type)?.label ?? b.bet_type,
      stake: formatMoney(b.stake_micro),
      odds: b.odds,
      status: b.status,
      payout: formatMoney(b.payout_micro),
      source: b.source,
      placed_at: b.placed_at,
      draw_at: b.draw_at,
      settled_at: b.settled_at,
    }
  }

  history(
    playerId: number,
    q: {
      game?: GameCode | undefined
      status?: string | undefined
      date_from?: string | undefined
      date_to?: string | undefined
    },
    page: number,
    pageSize: number,
  ) {
    this.catchUp(this.clock.now())
    const r = this.repo.history(
      {
        playerId,
        game: q.game,
        status: q.status,
        from: q.date_from ? startOfDay(q.date_from) : undefined,
        to: q.date_to ? dayRange(q.date_to).end : undefined,
      },
      pageSize,
      (page - 1) * pageSize,
    )
    return {
      list: r.rows.map((b) => this.betOut(b)),
      page,
      page_size: pageSize,
      total: r.total,
      has_more: page * pageSize < r.total,
      summary: { stake: formatMoney(r.stake), payout: formatMoney(r.payout) },
    }
  }

  // ── bet addresses and transfer bets ────────────────────────────────────────────────────────

  listAddresses(playerId: number) {
    const receiving = TRANSFER_KINDS.map((kind) => ({
      game: this.config.transfer.game,
      kind,
      address: this.config.transfer.addresses[kind],
      rule: KIND_RULE[kind],
    }))
    return { list: this.addresses.list(playerId).map(addressOut), receiving }
  }

  bindAddress(playerId: number, address: string, label = '') {
    const now = this.clock.now()
    return immediate(this.db, () => {
      if (this.addresses.byAddress(address)) throw new ApiError(CODE.conflict, GAME_MSG.addressTaken)
      if (this.addresses.count(playerId) >= MAX_ADDRESSES) throw fail(GAME_MSG.addressLimit)
      const id = this.addresses.insert(playerId, address, label, now)
      return addressOut(this.mustAddress(id))
    })
  }

  updateAddress(
    playerId: number,
    id: number,
    patch: { address?: string | undefined; label?: string | undefined },
  ) {
    const now = this.clock.now()
    return immediate(this.db, () => {
      const row = this.addresses.byId(id)
      if (!row || row.player_id !== playerId) throw notFound(GAME_MSG.addressUnknown)
      const address = patch.address ?? row.address
      const other = this.addresses.byAddress(address)
      if (other && other.id !== id) throw new ApiError(CODE.conflict, GAME_MSG.addressTaken)
      this.addresses.update(id, address, patch.label ?? row.label, now)
      return addressOut(this.mustAddress(id))
    })
  }

  deleteAddress(playerId: number, id: number): null {
    const row = this.addresses.byId(id)
    if (!row || row.player_id !== playerId) throw notFound(GAME_MSG.addressUnknown)
    this.addresses.remove(id)
    return null
  }

  private mustAddress(id: number): BetAddressRow {
    const row = this.addresses.byId(id)
    if (!row) throw new Error(`bet address ${id} vanished`)
    return row
  }

  /**
   * A transfer from a bound address to a receiving address, as the chain would bring it: it lands
   * in the next block, which decides it. The units digit picks the side; an invalid amount (or one
   * outside the limits, or on the other side of a pending bet) is credited back as a refund. A valid
   * one enters the ledger as a top-up and leaves it again as the bet's stake.
   */
  transfer(input: { from_address: string; to_address: string; amount: string }, playerId: number | null) {
    const now = this.clock.now()
    this.ensureChain()
    this.catchUp(now)
    const owner = this.addresses.byAddress(input.from_address)
    if (!owner) throw fail(GAME_MSG.fromUnbound)
    if (playerId !== null && owner.player_id !== playerId) throw fail(GAME_MSG.fromNotYours)
    const kind = TRANSFER_KINDS.find((k) => this.config.transfer.addresses[k] === input.to_address)
    if (!kind) throw fail(GAME_MSG.toUnknown)
    const amount = toMicro(input.amount)
    if (amount <= 0) throw fail(GAME_MSG.outOfLimits)
    const game = this.config.transfer.game
    // The transfer is played on the first block still open for bets (the chain would put it in
    // one of the next blocks; one already sealed would let it see a hash too close to its draw).
    const next = this.openRound(game, now)
    const round = now >= next.sealAt ? nextRound(next, this.config) : next
    if (!this.covered(round))
      throw fail(this.chainSpent(round) ? GAME_MSG.chainSpent : GAME_MSG.notOpen(round.roundId))
    const side = transferSide(kind, amount)
    const limits = this.config.games[game].limits
    const name = this.config.games[game].name
    const id = immediate(this.db, () => {
      const held = this.repo.playerRound(owner.player_id, round)
      const other = side ? oppositeOf(side) : null
      // A transfer cannot be turned away (the money has moved): one with an invalid amount, or
      // whose block closed meanwhile, is refunded instead of played.
      const closed = this.closedReason(round, now)
      const reason =
        closed !== null
          ? closed
          : side === null
            ? GAME_MSG.invalidDigit
            : amount < toMicro(limits.min_stake) || amount > toMicro(limits.max_stake)
              ? GAME_MSG.outOfLimits
              : other && held.has(other)
                ? GAME_MSG.bothSides(this.betType(game, side).label, this.betType(game, other).label)
                : this.protection.stakeRefusal(owner.player_id, amount, now)
      const base = { playerId: owner.player_id, currency: 'USDT' as const, amountMicro: amount, at: now }
      if (side === null || reason !== null) {
        const tid = this.repo.insertTransfer({
          playerId: owner.player_id,
          from: input.from_address,
          to: input.to_address,
          kind,
          amountMicro: amount,
          height: round.height,
          status: 'refunded',
          reason,
          betId: null,
          at: now,
        })
        this.ledger.post({ ...base, type: 'refund', ref: `transfer:${tid}`, memo: `转账投注退回：${reason}` })
        return tid
      }
      const betId = this.repo.addOrInsertBet({
        playerId: owner.player_id,
        game,
        roundId: round.roundId,
        betType: side,
        stakeMicro: amount,
        odds: milliToOdds(this.betType(game, side).oddsMilli),
        source: 'transfer',
        placedAt: now,
        height: round.height,
        drawAt: round.drawAt,
      }).id
      const tid = this.repo.insertTransfer({
        playerId: owner.player_id,
        from: input.from_address,
        to: input.to_address,
        kind,
        amountMicro: amount,
        height: round.height,
        status: 'bet',
        reason: null,
        betId,
        at: now,
      })
      this.ledger.post({
        ...base,
        type: 'topup',
        ref: `transfer:${tid}`,
        memo: `转账投注入账 ${input.from_address}`,
      })
      this.debit(
        owner.player_id,
        amount,
        betId,
        `${name} 第${round.roundId}期 ${this.betType(game, side).label}（转账）`,
        now,
      )
      return tid
    })
    return this.transferOut(this.mustTransfer(id))
  }

  transfers(playerId: number, page: number, pageSize: number) {
    this.catchUp(this.clock.now())
    const { rows, total } = this.repo.transfers(playerId, pageSize, (page - 1) * pageSize)
    return {
      list: rows.map((t) => this.transferOut(t)),
      page,
      page_size: pageSize,
      total,
      has_more: page * pageSize < total,
    }
  }

  private mustTransfer(id: number): TransferRow {
    const t = this.repo.transfer(id)
    if (!t) throw new Error(`transfer ${id} vanished`)
    return t
  }

  transferOut(t: TransferRow): z.infer<typeof transferSchema> {
    const bet = t.bet_id === null ? undefined : this.repo.bet(t.bet_id)
    return {
      id: t.id,
      from_address: t.from_address,
      to_address: t.to_address,
      kind: transferKind(t.kind),
      amount: formatMoney(t.amount_micro),
      status: t.status,
      reason: t.reason,
      height: t.height,
      created_at: t.created_at,
      bet: bet ? this.betOut(bet) : null,
    }
  }
}

const transferKind = (k: string): TransferKind => {
  const found = TRANSFER_KINDS.find((x) => x === k)
  if (!found) throw new Error(`unknown transfer kind ${k}`)
  return found
}

const roundOut = (r: Round) => ({
  game: r.game,
  round_id: r.roundId,
  height: r.height,
  seal_at: r.sealAt,
  draw_at: r.drawAt,
})

const parseNumbers = (text: string): number[] => {
  const v: unknown = JSON.parse(text)
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []
}
const parseLabels = (text: string): Record<string, string> => {
  const v: unknown = JSON.parse(text)
  const out: Record<string, string> = {}
  if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x
  return out
}

function drawOut(d: DrawRow): DrawResult {
  return {
    game: gameCodeSchema.parse(d.game),
    round_id: d.round_id,
    height: d.height,
    block_hash: d.block_hash,
    draw_at: d.draw_at,
    numbers: parseNumbers(d.numbers),
    labels: parseLabels(d.labels),
  }
}

const addressOut = (a: BetAddressRow) => ({
  id: a.id,
  address: a.address,
  label: a.label,
  created_at: a.created_at,
  updated_at: a.updated_at,
})
