import { type Db, immediate } from '@server/db/database'
import { ApiError, fail, notFound } from '@server/http/api-error'
import { pagedAnswer } from '@server/http/paged'
import type { transferSchema } from '@shared/contract/games'
import { CODE } from '@shared/envelope'
import { oppositeOf } from '@shared/games/bet-types'
import { type GamesConfig, milliToOdds } from '@shared/games/config'
import { nextRound } from '@shared/games/rounds'
import { TRANSFER_KINDS, type TransferKind, transferSide } from '@shared/games/transfer'
import { formatMoney, toMicro } from '@shared/money'
import type { z } from 'zod'
import type { EmuClock } from '../clock'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { ProtectionGuard } from '../protection/protection-guard'
import type { BetAddressRepository, BetAddressRow } from './bet-address-repository'
import { type BetService, stakeByType } from './bet-service'
import type { GameRepository, TransferRow } from './game-repository'
import { addressOut, GAME_MSG, transferKind } from './game-views'
import type { RoundService } from './round-service'

const MAX_ADDRESSES = 10

const KIND_RULE: Record<TransferKind, string> = {
  big_small: '金额个位数 0–4 为小，5–9 为大',
  odd_even: '金额个位数为单数投单，双数投双',
  banker_player: '金额个位数 1 投庄，2 投闲，3 投和，其它退回',
}

/**
 * Bet addresses and transfer bets: the wallet addresses a player sends bets from, and transfers
 * from them to the receiving addresses, played on the next open block (or refunded).
 */
export class TransferService {
  constructor(
    private readonly db: Db,
    private readonly clock: EmuClock,
    private readonly config: GamesConfig,
    private readonly repo: GameRepository,
    readonly addresses: BetAddressRepository,
    private readonly ledger: LedgerRepository,
    private readonly protection: ProtectionGuard,
    private readonly rounds: RoundService,
    private readonly bets: BetService,
  ) {}

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
    this.rounds.ensureChain()
    this.rounds.catchUp(now)
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
    const next = this.rounds.openRound(game, now)
    const round = now >= next.sealAt ? nextRound(next, this.config) : next
    if (!this.rounds.covered(round))
      throw fail(this.rounds.chainSpent(round) ? GAME_MSG.chainSpent : GAME_MSG.notOpen(round.roundId))
    const side = transferSide(kind, amount)
    const limits = this.config.games[game].limits
    const name = this.config.games[game].name
    const id = immediate(this.db, () => {
      const held = stakeByType(this.repo.pendingBets(owner.player_id, round))
      const other = side ? oppositeOf(side) : null
      // A transfer cannot be turned away (the money has moved): one with an invalid amount, or
      // whose block closed meanwhile, is refunded instead of played.
      const closed = this.rounds.closedReason(round, now)
      const reason =
        closed !== null
          ? closed
          : side === null
            ? GAME_MSG.invalidDigit
            : amount < toMicro(limits.min_stake) || amount > toMicro(limits.max_stake)
              ? GAME_MSG.outOfLimits
              : other && held.has(other)
                ? GAME_MSG.bothSides(
                    this.bets.betType(game, side).label,
                    this.bets.betType(game, other).label,
                  )
                : this.protection.stakeRefusal(owner.player_id, amount, now)
      const base = { playerId: owner.player_id, currency: 'USDT' as const, amountMicro: amount, at: now }
      // The transfer as it arrived, played as a bet or refunded.
      const record = (
        outcome: { status: 'bet'; betId: number } | { status: 'refunded'; reason: string | null },
      ) =>
        this.repo.insertTransfer({
          playerId: owner.player_id,
          from: input.from_address,
          to: input.to_address,
          kind,
          amountMicro: amount,
          height: round.height,
          status: outcome.status,
          reason: outcome.status === 'refunded' ? outcome.reason : null,
          betId: outcome.status === 'bet' ? outcome.betId : null,
          at: now,
        })
      if (side === null || reason !== null) {
        const tid = record({ status: 'refunded', reason })
        this.ledger.post({ ...base, type: 'refund', ref: `transfer:${tid}`, memo: `转账投注退回：${reason}` })
        return tid
      }
      const betId = this.repo.insertBet({
        playerId: owner.player_id,
        game,
        roundId: round.roundId,
        betType: side,
        stakeMicro: amount,
        odds: milliToOdds(this.bets.betType(game, side).oddsMilli),
        source: 'transfer',
        placedAt: now,
        height: round.height,
        drawAt: round.drawAt,
      }).id
      const tid = record({ status: 'bet', betId })
      // The transfer's money is staked at once: it comes in as a transfer bet (never a top-up,
      // docs/product.md#fund-flow-types) and leaves as the bet's stake.
      this.ledger.post({
        ...base,
        type: 'transfer_bet',
        ref: `transfer:${tid}`,
        memo: `转账投注转入 ${input.from_address}`,
      })
      this.bets.debit(
        owner.player_id,
        amount,
        betId,
        `${name} 第${round.roundId}期 ${this.bets.betType(game, side).label}（转账）`,
        now,
      )
      return tid
    })
    return this.transferOut(this.mustTransfer(id))
  }

  transfers(playerId: number, page: number, pageSize: number) {
    this.rounds.catchUp(this.clock.now())
    const { rows, total } = this.repo.transfers(playerId, pageSize, (page - 1) * pageSize)
    return pagedAnswer(
      rows.map((t) => this.transferOut(t)),
      page,
      pageSize,
      total,
    )
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
      bet: bet ? this.bets.betOut(bet) : null,
    }
  }
}
