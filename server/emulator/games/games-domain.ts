import type { Db } from '@server/db/database'
import { type Publish, publishNothing } from '@server/realtime/event-hub'
import type { GamesConfig } from '@shared/games/config'
import type { FastifyBaseLogger } from 'fastify'
import type { EmuClock } from '../clock'
import type { LedgerRepository } from '../ledger/ledger-repository'
import type { ProtectionGuard } from '../protection/protection-guard'
import { BetAddressRepository } from './bet-address-repository'
import { BetService } from './bet-service'
import { BetSettlement } from './bet-settlement'
import { ChainStore } from './chain-store'
import { GameRepository } from './game-repository'
import { RoundService } from './round-service'
import { TransferService } from './transfer-service'

/**
 * The games of the emulator, in three parts: rounds and draws (`rounds`), bets and their
 * settlement (`bets`, `settlement`), bet addresses and transfer bets (`transfers`).
 *
 * Money: each bet debits its stake through the ledger when placed; a draw credits each player one
 * 'payout' row (Σ stake × odds over their winning bets, each rounded down to the micro-unit) and one
 * 'refund' row (stakes of bets ending in a draw) per round.
 */
export class GamesDomain {
  readonly chain: ChainStore
  readonly repo: GameRepository
  readonly settlement: BetSettlement
  readonly rounds: RoundService
  readonly bets: BetService
  readonly transfers: TransferService
  readonly betAddresses: BetAddressRepository

  constructor(
    db: Db,
    clock: EmuClock,
    ledger: LedgerRepository,
    readonly config: GamesConfig,
    chainLength: number,
    log: FastifyBaseLogger,
    protection: ProtectionGuard,
    publish: Publish = publishNothing,
  ) {
    this.chain = new ChainStore(db, chainLength)
    this.repo = new GameRepository(db)
    this.settlement = new BetSettlement(config, this.repo, ledger, publish)
    this.rounds = new RoundService(db, clock, config, this.chain, this.repo, this.settlement, log, publish)
    this.bets = new BetService(db, clock, config, this.repo, ledger, protection, this.rounds)
    this.betAddresses = new BetAddressRepository(db)
    this.transfers = new TransferService(
      db,
      clock,
      config,
      this.repo,
      this.betAddresses,
      ledger,
      protection,
      this.rounds,
      this.bets,
    )
  }
}
