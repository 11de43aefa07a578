import { type Db, immediate } from '@server/db/database'
import { fail, notFound } from '@server/http/api-error'
import { pagedAnswer } from '@server/http/paged'
import { dayRange, startOfDay } from '@shared/business-day'
import type { betItemSchema } from '@shared/contract/games'
import { oppositeOf } from '@shared/games/bet-types'
import { type GameCode, type GamesConfig, gameCodeSchema, milliToOdds } from '@shared/games/config'
import { type PricedBet, pricedBets } from '@shared/games/odds'
import { roundById } from '@shared/games/rounds'
import { formatMoney, toMicro } from '@shared/money'
import type { z } from 'zod'
import type { EmuClock } from '../clock'
import { InsufficientFundsError } from '../ledger/insufficient-funds'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { ProtectionGuard } from '../protection/protection-guard'
import type { BetRow, GameRepository } from './game-repository'
import { drawOut, GAME_MSG } from './game-views'
import type { RoundService } from './round-service'

type BetItem = z.infer<typeof betItemSchema>

/** The stake per bet type among a player's pending bets in a round (`GameRepository.pendingBets`). */
export function stakeByType(bets: readonly BetRow[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const b of bets) out.set(b.bet_type, (out.get(b.bet_type) ?? 0) + b.stake_micro)
  return out
}

/**
 * Bets placed in the app: checked against the round, the limits and player protection, each stake
 * debited through the ledger in the bet's transaction; and the player's bet history.
 */
export class BetService {
  private readonly types = new Map<GameCode, Map<string, PricedBet>>()

  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
    private readonly config: GamesConfig,
    private readonly repo: GameRepository,
    private readonly ledger: LedgerRepository,
    private readonly protection: ProtectionGuard,
    private readonly rounds: RoundService,
  ) {}

  /**
   * A game's bet types by name, priced on first use: deriving the odds enumerates every outcome of
   * the game (about 0.6 s for all five), which a server that is never asked about a game's bets
   * need not pay at start-up.
   */
  private typesOf(game: GameCode): Map<string, PricedBet> {
    let byType = this.types.get(game)
    if (!byType) {
      byType = new Map(pricedBets(game, this.config).map((b) => [b.type, b]))
      this.types.set(game, byType)
    }
    return byType
  }

  betType(game: GameCode, type: string): PricedBet {
    const t = this.typesOf(game).get(type)
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
    this.rounds.ensureChain()
    this.rounds.catchUp(now)
    const round = roundById(game, roundId, this.config)
    if (!round) throw notFound(GAME_MSG.noRound)
    const limits = this.config.games[game].limits
    const name = this.config.games[game].name
    // One transaction from the round check to the last ledger row: checked under the write lock,
    // the round cannot be drawn by another process between the check and the stakes.
    const ids = immediate(this.db, () => {
      this.rounds.assertOpen(round, now)
      const min = toMicro(limits.min_stake)
      const max = toMicro(limits.max_stake)
      const wanted = new Map<string, number>()
      for (const item of items) {
        this.betType(game, item.bet_type)
        const amount = toMicro(item.amount)
        if (amount < min) throw fail(GAME_MSG.belowMin(limits.min_stake))
        wanted.set(item.bet_type, (wanted.get(item.bet_type) ?? 0) + amount)
      }
      const pending = this.repo.pendingBets(playerId, round)
      const held = stakeByType(pending)
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
        // A second bet of a type in a round adds to the first: one app bet per type and round.
        const mine = pending.find((b) => b.bet_type === type && b.source === 'app')
        const bet = mine
          ? this.repo.raiseBet(mine, amount)
          : this.repo.insertBet({
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
  debit(playerId: number, amount: number, betId: number, memo: string, at: number): number {
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
      label: this.typesOf(game).get(b.bet_type)?.label ?? b.bet_type,
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
    this.rounds.catchUp(this.clock.now())
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
    const list = r.rows.map((b) => {
      const draw = b.status === 'pending' ? undefined : this.repo.draw(b.game, b.round_id)
      return { ...this.betOut(b), result: draw ? drawOut(draw) : null }
    })
    return {
      ...pagedAnswer(list, page, pageSize, r.total),
      summary: { stake: formatMoney(r.stake), payout: formatMoney(r.payout) },
    }
  }
}
