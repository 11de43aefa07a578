import type { Publish } from '@server/realtime/event-hub'
import { player, publishNothing } from '@server/realtime/event-hub'
import type { GamesConfig } from '@shared/games/config'
import { pricedBets } from '@shared/games/odds'
import { type BetResult, type Outcome, settlerFor } from '@shared/games/outcome'
import type { Round } from '@shared/games/rounds'
import { formatMoney } from '@shared/money'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { GameRepository } from './game-repository'

/** What a draw settled: the bets, their stakes and what they paid. */
export interface DrawTotals {
  readonly count: number
  readonly stake: number
  readonly paid: number
}

/** The money side of a draw: marks the round's bets won, lost or drawn, and pays them. */
export class BetSettlement {
  constructor(
    private readonly config: GamesConfig,
    private readonly repo: GameRepository,
    private readonly ledger: LedgerRepository,
    private readonly publish: Publish = publishNothing,
  ) {}

  /**
   * Settles a drawn round's pending bets; runs inside the draw's transaction. Every bet of one type
   * settles alike, so the outcome is worked out per bet type here and applied to all the round's
   * bets by one statement, each bet's payout rounded down on its own. Returns the round's totals.
   */
  settle(round: Round, outcome: Outcome): DrawTotals {
    const results = new Map<string, BetResult>()
    for (const { type } of pricedBets(round.game, this.config)) {
      results.set(type, settlerFor(round.game, type, this.config)(outcome))
    }
    const settled = this.repo.settleRound({ game: round.game, round: round.roundId }, results, round.drawAt)
    let stake = 0
    let paid = 0
    let count = 0
    const credits = new Map<number, { payout: number; refund: number }>()
    const perPlayer = new Map<
      number,
      { count: number; stake: number; payout: number; refund: number; won: number }
    >()
    for (const g of settled) {
      stake += g.stakeMicro
      count += g.count
      const mine = perPlayer.get(g.playerId) ?? { count: 0, stake: 0, payout: 0, refund: 0, won: 0 }
      mine.count += g.count
      mine.stake += g.stakeMicro
      if (g.result === 'draw') mine.refund += g.payoutMicro
      else mine.payout += g.payoutMicro
      if (g.result === 'won') mine.won += g.count
      perPlayer.set(g.playerId, mine)
      if (g.payoutMicro === 0) continue
      const c = credits.get(g.playerId) ?? { payout: 0, refund: 0 }
      if (g.result === 'draw') c.refund += g.payoutMicro
      else c.payout += g.payoutMicro
      credits.set(g.playerId, c)
      paid += g.payoutMicro
    }
    if (settled.length > 0) this.payOut(round, credits)
    for (const [playerId, s] of perPlayer)
      this.publish(
        'settlement',
        {
          game: round.game,
          round_id: round.roundId,
          bet_count: s.count,
          stake: formatMoney(s.stake),
          payout: formatMoney(s.payout),
          refund: formatMoney(s.refund),
          won: s.won,
        },
        player(playerId),
      )
    return { count, stake, paid }
  }

  /** Pays a settled round: one 'payout' and one 'refund' ledger row per player, in the draw's transaction. */
  payOut(round: Round, credits: ReadonlyMap<number, { payout: number; refund: number }>): void {
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
}
