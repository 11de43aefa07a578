import { excludedWithdraw } from '@shared/contract/protection'
import { withdraw } from '@shared/contract/wallet'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config'
import { type Db, openDatabase } from '../db/database'
import { migrate } from '../db/migrations'
import { IDEMPOTENCY_DEFAULTS, IdempotencyStore } from '../http/idempotency'
import { type EventHub, MemoryEventHub } from '../realtime/event-hub'
import { committedPublisher } from '../realtime/publisher'
import { accountSeeder } from './account/account-seeder'
import { AccountService } from './account/account-service'
import { PasswordGuard } from './account/password-guard'
import { loadAgentSettings } from './agent/agent-fixtures'
import { agentSeeder } from './agent/agent-seeder'
import { AgentService } from './agent/agent-service'
import type { EmuClock } from './clock'
import { WorldClockStore } from './clock-store'
import { loadContent } from './content/content-fixtures'
import { contentSeeder } from './content/content-seeder'
import { ContentService } from './content/content-service'
import { GamesDomain } from './games/games-domain'
import { gamesSeeder, loadGamesConfig } from './games/games-seeder'
import { RoundTimer } from './games/round-timer'
import { LedgerRepository } from './ledger/ledger-repository'
import { ProtectionGuard } from './protection/protection-guard'
import { ProtectionService } from './protection/protection-service'
import { reseed, type Seeder } from './seed'
import { Ticker } from './ticker'
import { loadPromotionsFixture } from './wallet/first-deposit-bonus'
import { WalletDomain } from './wallet/wallet-domain'
import { walletSeeder } from './wallet/wallet-seeder'
import { loadWalletFixture, WalletSettingsHolder } from './wallet/wallet-settings'

/** The emulator: its database, clock and timed work, and every domain, each built once here. */
export interface Emulator {
  readonly db: Db
  readonly clock: EmuClock
  readonly ticker: Ticker
  readonly ledger: LedgerRepository
  readonly idempotency: IdempotencyStore
  readonly protection: { readonly guard: ProtectionGuard; readonly service: ProtectionService }
  readonly accounts: AccountService
  readonly wallet: WalletDomain
  readonly games: GamesDomain
  readonly agent: AgentService
  readonly content: ContentService
  /** The push channel's events: every domain publishes here, every open stream listens. */
  readonly events: EventHub
  /** Draws and announces each game's sealing and draw at its time (see RoundTimer). */
  readonly roundTimer: RoundTimer
  /** Whether the database has been seeded (a fresh file has no players yet). */
  isSeeded(): boolean
  /** Everything back to the seed, in one transaction. */
  reset(): Promise<void>
}

/**
 * Opens (and migrates) the database and builds the domains in the order they depend on each
 * other: ledger, protection's guard, accounts, wallet, games, agent, content, protection. Each
 * gets what it uses from the others passed in; the seeders and the timed jobs are registered here.
 */
export function createEmulator(
  config: Config,
  clock: EmuClock,
  log: FastifyBaseLogger,
  events: EventHub = new MemoryEventHub(config.STREAM_REPLAY_SIZE, Date.now(), (err) =>
    log.error({ err }, 'push channel listener failed'),
  ),
): Emulator {
  const db = openDatabase(config.DB_PATH)
  const publish = committedPublisher(db, events, (err) => log.error({ err }, 'publishing an event failed'))
  const applied = migrate(db)
  if (applied > 0) log.info({ applied, path: config.DB_PATH }, 'database migrated')
  const fixturesDir = config.FIXTURES_DIR

  // Before anything reads the time: the world clock carries on from where it was.
  const worldClock = new WorldClockStore(db, clock)
  worldClock.start()
  const ticker = new Ticker(clock, log)
  const ledger = new LedgerRepository(db, publish)
  const guard = new ProtectionGuard(db)
  const accounts = new AccountService(db, clock, config, log, guard, ledger, publish)

  const walletSettings = new WalletSettingsHolder(loadWalletFixture(fixturesDir))
  const wallet = new WalletDomain(
    {
      db,
      clock,
      ledger,
      accounts: accounts.accounts,
      payGuard: new PasswordGuard(db, 'pay', () => clock.worldNow()),
      protection: guard,
      settings: walletSettings,
      publish,
    },
    loadPromotionsFixture(fixturesDir),
  )

  const gamesConfig = loadGamesConfig(fixturesDir)
  const games = new GamesDomain(db, clock, ledger, gamesConfig, config.GAME_CHAIN_LENGTH, log, guard, publish)
  const roundTimer = new RoundTimer(clock, games.rounds, publish, log)

  const agent = new AgentService(db, clock, ledger, accounts, loadAgentSettings(fixturesDir))
  const content = new ContentService(db, clock, loadContent(fixturesDir, clock.now()), publish)
  const protection = new ProtectionService({
    db,
    clock,
    guard,
    accounts: accounts.accounts,
    account: accounts,
    sessions: accounts.sessions,
    withdrawals: wallet.withdrawals,
  })

  // In this order: each seeder hangs its rows below the players the account seeder wrote.
  // Each writes its own domain's rows, through the repositories handed to it.
  const seeders: Seeder[] = [
    accountSeeder(accounts.accounts, ledger),
    gamesSeeder(gamesConfig, accounts.accounts, games.betAddresses),
    agentSeeder(accounts.accounts),
    walletSeeder(walletSettings, accounts.accounts, wallet.withdrawals.withdrawals),
    contentSeeder(content.announcements),
  ]
  // The round timer draws what is due and announces it; it also sets itself for the next draw.
  ticker.register('games', () => roundTimer.fire())
  ticker.register('wallet', (now) => wallet.runDue(now))
  ticker.register('world clock', (now) => worldClock.tick(now))
  ticker.register('announcements', (now) => content.announceDue(now))

  return {
    db,
    clock,
    ticker,
    ledger,
    // The withdrawals store their answer with the hold (see recordAnswer), so a key of theirs
    // left "in progress" by a stopped process is resolved here, at start-up.
    idempotency: new IdempotencyStore(db, clock, IDEMPOTENCY_DEFAULTS, [withdraw.id, excludedWithdraw.id]),
    protection: { guard, service: protection },
    accounts,
    wallet,
    games,
    agent,
    content,
    events,
    roundTimer,
    isSeeded: () => accounts.accounts.anyPlayer(),
    reset: async () => {
      await reseed(db, seeders, { fixturesDir, now: clock.now() })
      accounts.sessions.clearCache()
      guard.reload()
      ledger.markBalancesChanged()
      // The reset emptied every table, the kept clock's too.
      worldClock.save()
    },
  }
}
