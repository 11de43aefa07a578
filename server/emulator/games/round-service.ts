import { type Db, immediate } from '@server/db/database'
import { fail, notFound } from '@server/http/api-error'
import { pagedAnswer } from '@server/http/paged'
import { EVERYONE, type Publish, publishNothing } from '@server/realtime/event-hub'
import type { commitmentSchema, drawResultSchema, gameSummarySchema } from '@shared/contract/games'
import { lotteryFloatsSync, lotteryMessage, roundsFor } from '@shared/games/chain'
import { GAME_CODES, type GameCode, type GamesConfig, milliToOdds } from '@shared/games/config'
import { pricedBets } from '@shared/games/odds'
import { drawOutcome, FLOATS_NEEDED, type Outcome } from '@shared/games/outcome'
import {
  currentRound,
  heightAt,
  isLottery,
  nextRound,
  type Round,
  roundById,
  roundState,
  roundsDrawnIn,
} from '@shared/games/rounds'
import { formatMoney, toMicro } from '@shared/money'
import type { FastifyBaseLogger } from 'fastify'
import type { z } from 'zod'
import type { EmuClock } from '../clock'
import type { BetSettlement } from './bet-settlement'
import type { ChainStore } from './chain-store'
import type { GameRepository } from './game-repository'
import { drawOut, GAME_MSG, parseLabels, parseNumbers, roundOut } from './game-views'
import { nodeHasher } from './node-hasher'

/** Rounds without bets older than this many per game are not recorded when the clock jumps far ahead. */
const RECENT_ROUNDS = 1000
/** Draws announced on the push channel per game and catch-up: the newest ones, when the clock jumped far. */
export const DRAW_EVENTS_PER_CATCH_UP = 20

/**
 * Rounds and draws: the hash chain, which round is open, drawing every round due (a ticker job
 * that draws, for each game, its due rounds in one transaction with its cursor, so every round is
 * drawn and settled exactly once even across a restart), and the reads of rounds, results, rules
 * and verification.
 */
export class RoundService {
  /** Nothing is due before this time (the earliest next draw after the last catch-up), unless the clock went back. */
  private quietUntil = Number.NEGATIVE_INFINITY
  private lastCatchUp = Number.NEGATIVE_INFINITY

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
    readonly config: GamesConfig,
    readonly chain: ChainStore,
    private readonly repo: GameRepository,
    private readonly settlement: BetSettlement,
    private readonly log: FastifyBaseLogger,
    private readonly publish: Publish = publishNothing,
  ) {}

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

  private pricesReady = false

  /**
   * The odds of every game, worked out now rather than at the first draw that settles a bet. They
   * come from enumerating each game's outcomes (time-time colour's 100,000 alone take a few hundred
   * milliseconds), which at a draw would hold every answer and stream of the process that long.
   */
  priceEveryGame(): void {
    const t = Date.now()
    for (const game of GAME_CODES) pricedBets(game, this.config)
    this.pricesReady = true
    this.log.info({ ms: Date.now() - t }, 'games: odds worked out')
  }

  /** Whether {@link priceEveryGame} has run. */
  get priced(): boolean {
    return this.pricesReady
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

  covered(round: Round): boolean {
    return this.chain.blockNumber(round.height) !== null
  }

  /** The round lies beyond the chain's last block (N blocks after its start). */
  chainSpent(round: Round): boolean {
    const c = this.chain.get()
    return c !== null && round.height - c.start_height > c.length
  }

  /** What a round's block decided. */
  outcomeOf(round: Round): { hash: string; outcome: Outcome } {
    const hash = this.chain.blockHash(round.height)
    const floats = lotteryFloatsSync(nodeHasher, hash, round.game, round.height, FLOATS_NEEDED[round.game])
    return { hash, outcome: drawOutcome(round.game, hash, floats) }
  }

  // ── draws ──────────────────────────────────────────────────────────────────────────────────

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
        const drawn = rounds.map((r) => this.drawRound(r))
        // Announced once committed (the publisher waits for it), newest last.
        for (const d of drawn.slice(-DRAW_EVENTS_PER_CATCH_UP)) this.publish('draw', d, EVERYONE)
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

  /** Records a round's draw, settling its bets first; runs inside the caller's transaction. */
  private drawRound(round: Round): z.infer<typeof drawResultSchema> {
    const { hash, outcome } = this.outcomeOf(round)
    const totals = this.settlement.settle(round, outcome)
    this.repo.recordDraw({
      game: round.game,
      round_id: round.roundId,
      height: round.height,
      block_hash: hash,
      numbers: JSON.stringify(outcome.numbers),
      labels: JSON.stringify(outcome.labels),
      draw_at: round.drawAt,
      bet_count: totals.count,
      stake_micro: totals.stake,
      payout_micro: totals.paid,
    })
    return {
      game: round.game,
      round_id: round.roundId,
      height: round.height,
      block_hash: hash,
      draw_at: round.drawAt,
      numbers: outcome.numbers,
      labels: outcome.labels,
    }
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

  /** The round bets go to now: the first one after the clock that has not been drawn. */
  openRound(game: GameCode, now: number): Round {
    return this.firstUndrawn(game, now, this.repo.latestDrawAt(game))
  }

  private firstUndrawn(game: GameCode, now: number, latestDrawAt: number | null): Round {
    const byClock = currentRound(game, now, this.config)
    return latestDrawAt !== null && byClock.drawAt <= latestDrawAt
      ? currentRound(game, latestDrawAt, this.config)
      : byClock
  }

  /**
   * Why a round takes no bet now (drawn, sealed, not yet open, beyond the chain), or null when it is
   * open. A round is closed for good once it is drawn, and draws are recorded in order, each at its
   * round's draw time: so it is drawn when the game's newest draw is at or after its draw time. The
   * clock alone never reopens it — a tester may move the clock back before a round's draw time
   * (docs/game-rules.md, "Sealing").
   */
  closedReason(round: Round, now: number): string | null {
    if (now >= round.drawAt) return GAME_MSG.drawn(round.roundId)
    const latestDrawAt = this.repo.latestDrawAt(round.game)
    if (latestDrawAt !== null && round.drawAt <= latestDrawAt) return GAME_MSG.drawn(round.roundId)
    if (now >= round.sealAt) return GAME_MSG.sealed(round.roundId)
    // The current round and the two after it take bets: in the block game, whose rounds last one
    // block, the next round may have less than the few seconds a confirmation needs.
    const latestOpen = nextRound(
      nextRound(this.firstUndrawn(round.game, now, latestDrawAt), this.config),
      this.config,
    )
    if (round.drawAt > latestOpen.drawAt) return GAME_MSG.notOpen(round.roundId)
    if (!this.covered(round))
      return this.chainSpent(round) ? GAME_MSG.chainSpent : GAME_MSG.notOpen(round.roundId)
    return null
  }

  /**
   * Refuses a bet on a closed round: bets from the app go through this (`BetService.placeBets`). A
   * transfer bet does not: its money has already moved, so `TransferService` asks `closedReason`
   * and refunds instead of refusing (docs/game-rules.md, "Sealing").
   */
  assertOpen(round: Round, now: number): void {
    const reason = this.closedReason(round, now)
    if (reason !== null) throw fail(reason)
  }

  current(game: GameCode) {
    const now = this.clock.now()
    this.ensureChain()
    this.catchUp(now)
    return this.roundAt(game, now)
  }

  /** The current round as `current` answers it, without drawing what is due first. */
  roundAt(game: GameCode, now: number) {
    const latest = this.repo.latestDraw(game)
    const r = this.firstUndrawn(game, now, latest?.draw_at ?? null)
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
    return pagedAnswer(rows.map(drawOut), page, pageSize, total)
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
}
