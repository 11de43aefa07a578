import { type Db, immediate, openDatabase } from '@server/db/database'
import { migrate } from '@server/db/migrations'
import type { Publish } from '@server/realtime/event-hub'
import { milliToOdds } from '@shared/games/config'
import { pricedBets } from '@shared/games/odds'
import { type Outcome, qukuaiOutcome, settlerFor } from '@shared/games/outcome'
import type { Round } from '@shared/games/rounds'
import { fixtureConfig } from '@shared/games/test-config'
import { formatMoney } from '@shared/money'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AccountRepository } from '../account/account-repository'
import { LedgerRepository } from '../ledger/ledger-repository'
import { BetSettlement } from './bet-settlement'
import { GameRepository } from './game-repository'

/**
 * Settling a drawn round on its own, against an in-memory database: each bet marked by what its
 * type did at the draw, each payout rounded down on its own, one 'payout' and one 'refund' ledger
 * row per player, one settlement event per player.
 */

const config = fixtureConfig()
const DRAW_AT = 1_700_000_000_000
const ROUND: Round = { game: 'qukuai', roundId: '500', height: 500, drawAt: DRAW_AT, sealAt: DRAW_AT - 3_000 }
const NAME = config.games.qukuai.name
const oddsMilli = (type: string): number => {
  const bet = pricedBets('qukuai', config).find((b) => b.type === type)
  if (!bet) throw new Error(`no bet type ${type}`)
  return bet.oddsMilli
}

/** The first block hash (counting up from 0) whose outcome settles `banker` as asked. */
function outcomeWhere(banker: 'won' | 'lost' | 'draw'): Outcome {
  const settle = settlerFor('qukuai', 'banker', config)
  for (let i = 0; i < 100_000; i++) {
    const o = qukuaiOutcome(i.toString(16).padStart(64, '0'))
    if (settle(o) === banker) return o
  }
  throw new Error(`no outcome where banker ${banker}`)
}

describe('BetSettlement', () => {
  let db: Db
  let ledger: LedgerRepository
  let repo: GameRepository
  let publish: ReturnType<typeof vi.fn<Publish>>
  let settlement: BetSettlement
  let alice: number
  let bob: number

  const bet = (
    playerId: number,
    betType: string,
    stakeMicro: number,
    round = ROUND,
    source: 'app' | 'transfer' = 'app',
  ) =>
    repo.insertBet({
      playerId,
      game: round.game,
      roundId: round.roundId,
      betType,
      stakeMicro,
      odds: milliToOdds(oddsMilli(betType)),
      source,
      placedAt: round.drawAt - 10_000,
      height: round.height,
      drawAt: round.drawAt,
    })
  const settle = (outcome: Outcome, round = ROUND) => immediate(db, () => settlement.settle(round, outcome))
  const ledgerRows = () =>
    db.prepare('SELECT player_id, type, amount_micro, ref, memo, created_at FROM ledger ORDER BY id').all()
  const betRows = () =>
    db.prepare('SELECT player_id, bet_type, status, payout_micro, settled_at FROM bets ORDER BY id').all()

  beforeEach(() => {
    db = openDatabase(':memory:')
    migrate(db)
    publish = vi.fn<Publish>()
    ledger = new LedgerRepository(db)
    repo = new GameRepository(db)
    settlement = new BetSettlement(config, repo, ledger, publish)
    const accounts = new AccountRepository(db, ledger)
    const player = (phone: string, inviteCode: string) =>
      accounts.create({ phone, nickname: phone, passwordHash: 'x', inviteCode, inviterId: null, at: 1 })
    alice = player('13800000001', 'AAA111')
    bob = player('13800000002', 'BBB222')
  })

  afterEach(() => db.close())

  it('pays the winners, once per player, and marks every bet', () => {
    const banker = oddsMilli('banker')
    bet(alice, 'banker', 10_000_000)
    bet(alice, 'player', 3_000_000)
    // Two transferred bets of one micro-unit each: each payout is rounded down on its own.
    bet(bob, 'banker', 1, ROUND, 'transfer')
    bet(bob, 'banker', 1, ROUND, 'transfer')
    bet(bob, 'tie', 2_000_000)

    const totals = settle(outcomeWhere('won'))

    const alicePaid = Math.floor((10_000_000 * banker) / 1000)
    const bobPaid = 2 * Math.floor(banker / 1000)
    expect(totals).toEqual({ count: 5, stake: 15_000_002, paid: alicePaid + bobPaid })
    expect(betRows()).toEqual([
      { player_id: alice, bet_type: 'banker', status: 'won', payout_micro: alicePaid, settled_at: DRAW_AT },
      { player_id: alice, bet_type: 'player', status: 'lost', payout_micro: 0, settled_at: DRAW_AT },
      { player_id: bob, bet_type: 'banker', status: 'won', payout_micro: 1, settled_at: DRAW_AT },
      { player_id: bob, bet_type: 'banker', status: 'won', payout_micro: 1, settled_at: DRAW_AT },
      { player_id: bob, bet_type: 'tie', status: 'lost', payout_micro: 0, settled_at: DRAW_AT },
    ])
    expect(ledgerRows()).toEqual([
      {
        player_id: alice,
        type: 'payout',
        amount_micro: alicePaid,
        ref: 'round:qukuai:500',
        memo: `${NAME} 第500期 派奖`,
        created_at: DRAW_AT,
      },
      {
        player_id: bob,
        type: 'payout',
        amount_micro: bobPaid,
        ref: 'round:qukuai:500',
        memo: `${NAME} 第500期 派奖`,
        created_at: DRAW_AT,
      },
    ])
    expect(ledger.drift()).toEqual([])
  })

  it('refunds the stakes a tie hands back, in a refund row of its own beside the payout', () => {
    bet(alice, 'banker', 4_000_000)
    bet(alice, 'player', 1_000_000)
    bet(alice, 'tie', 2_000_000)
    bet(bob, 'player', 5_000_000)

    const tiePaid = Math.floor((2_000_000 * oddsMilli('tie')) / 1000)
    const totals = settle(outcomeWhere('draw'))

    expect(totals).toEqual({ count: 4, stake: 12_000_000, paid: 5_000_000 + tiePaid + 5_000_000 })
    expect(ledgerRows()).toEqual([
      {
        player_id: alice,
        type: 'payout',
        amount_micro: tiePaid,
        ref: 'round:qukuai:500',
        memo: `${NAME} 第500期 派奖`,
        created_at: DRAW_AT,
      },
      {
        player_id: alice,
        type: 'refund',
        amount_micro: 5_000_000,
        ref: 'round:qukuai:500',
        memo: `${NAME} 第500期 和局退款`,
        created_at: DRAW_AT,
      },
      {
        player_id: bob,
        type: 'refund',
        amount_micro: 5_000_000,
        ref: 'round:qukuai:500',
        memo: `${NAME} 第500期 和局退款`,
        created_at: DRAW_AT,
      },
    ])
    expect(publish.mock.calls).toEqual([
      [
        'settlement',
        {
          game: 'qukuai',
          round_id: '500',
          bet_count: 3,
          stake: '7.00',
          payout: formatMoney(tiePaid),
          refund: '5.00',
          won: 1,
        },
        { to: 'player', playerId: alice },
      ],
      [
        'settlement',
        {
          game: 'qukuai',
          round_id: '500',
          bet_count: 1,
          stake: '5.00',
          payout: '0.00',
          refund: '5.00',
          won: 0,
        },
        { to: 'player', playerId: bob },
      ],
    ])
  })

  it('tells a player who lost everything, and writes no ledger row for them', () => {
    bet(alice, 'banker', 1_000_000)
    bet(alice, 'tie', 1_000_000)
    expect(settle(outcomeWhere('lost'))).toEqual({ count: 2, stake: 2_000_000, paid: 0 })
    expect(ledgerRows()).toEqual([])
    expect(publish.mock.calls).toEqual([
      [
        'settlement',
        {
          game: 'qukuai',
          round_id: '500',
          bet_count: 2,
          stake: '2.00',
          payout: '0.00',
          refund: '0.00',
          won: 0,
        },
        { to: 'player', playerId: alice },
      ],
    ])
  })

  it('settles only the round drawn, and a round only once', () => {
    const next: Round = { ...ROUND, roundId: '501', height: 501, drawAt: DRAW_AT + 60_000 }
    bet(alice, 'banker', 1_000_000)
    bet(alice, 'banker', 1_000_000, next)
    const won = outcomeWhere('won')
    expect(settle(won).count).toBe(1)
    expect(betRows().map((b) => (b as { status: string }).status)).toEqual(['won', 'pending'])
    expect(repo.pendingRoundsDue('qukuai', next.drawAt)).toEqual(['501'])
    // Settled again (a replayed draw): nothing left to pay.
    expect(settle(won)).toEqual({ count: 0, stake: 0, paid: 0 })
    expect(ledgerRows()).toHaveLength(1)
  })

  it('a round without bets pays nothing and tells no one', () => {
    expect(settle(outcomeWhere('won'))).toEqual({ count: 0, stake: 0, paid: 0 })
    expect(ledgerRows()).toEqual([])
    expect(publish).not.toHaveBeenCalled()
  })
})
