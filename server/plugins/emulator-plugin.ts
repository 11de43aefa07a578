import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { TOKEN_HEADER } from '../../shared/constants'
import type { Config } from '../config'
import { type Db, openDatabase } from '../db/database'
import { migrate } from '../db/migrations'
import { accountSeeder, demoLogin } from '../emulator/account/account-seeder'
import { AccountService } from '../emulator/account/account-service'
import type { EmuClock } from '../emulator/clock'
import { bumpLedgerGeneration, LedgerRepository } from '../emulator/ledger/ledger-repository'
import { protectionGuard } from '../emulator/protection/protection-guard'
import { isSeeded, reseed, type Seeder } from '../emulator/seed'
import { Ticker } from '../emulator/ticker'
import { sessionExpired } from '../http/api-error'

export interface AuthedPlayer {
  readonly id: number
  readonly token: string
}

/** What the emulator's domains share: the database, the clock, timed work and the ledger. */
export interface Emulator {
  readonly db: Db
  readonly clock: EmuClock
  readonly ticker: Ticker
  readonly ledger: LedgerRepository
  readonly accounts: AccountService
  /** Domains add their seed writers here while the app is being built. */
  addSeeder(seeder: Seeder): void
  /** Everything back to the seed, in one transaction. */
  reset(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    emu: Emulator
    /** preHandler for endpoints that need a session: a missing, unknown or expired token gets 10001. */
    /** The session check: sets `request.player`, or throws the session-lost answer. */
    authenticate: (request: FastifyRequest) => void
  }
  interface FastifyRequest {
    player: AuthedPlayer | null
  }
}

export const emulatorPlugin = fp(
  async (app, opts: { config: Config; clock: EmuClock }) => {
    const { config, clock } = opts
    const db = openDatabase(config.DB_PATH)
    const applied = migrate(db)
    if (applied > 0) app.log.info({ applied, path: config.DB_PATH }, 'database migrated')

    const seeders: Seeder[] = [accountSeeder]
    const seedCtx = () => ({ fixturesDir: config.FIXTURES_DIR, now: clock.now() })
    const accounts = new AccountService(db, clock, config, app.log)
    const ticker = new Ticker(clock, app.log)

    const emu: Emulator = {
      db,
      clock,
      ticker,
      ledger: new LedgerRepository(db),
      accounts,
      addSeeder: (s) => seeders.push(s),
      reset: async () => {
        await reseed(db, seeders, seedCtx())
        accounts.sessions.clearCache()
        protectionGuard(db).reload()
        bumpLedgerGeneration(db)
      },
    }
    app.decorate('emu', emu)
    app.decorateRequest('player', null)

    const protection = protectionGuard(db)
    // On the request's clock: a tester's scope clock can expire their own session without moving the world.
    app.decorate('authenticate', (request: FastifyRequest) => {
      const token = request.headers[TOKEN_HEADER]
      if (typeof token !== 'string' || token === '') throw sessionExpired()
      const session = accounts.sessions.live(token, clock.requestNow())
      if (!session || !protection.sessionAllowed(session.player_id, clock.now())) throw sessionExpired()
      request.player = { id: session.player_id, token }
    })

    // A token the fault layer expires or revokes is dead in the database too.
    app.faults.onSessionFault((token) => accounts.sessions.endToken(token, clock.now()))

    app.addHook('onReady', async () => {
      if (!isSeeded(db)) {
        await emu.reset()
        const demo = demoLogin(config.FIXTURES_DIR)
        app.log.info(`seeded a fresh database; demo player: phone ${demo.phone}, password ${demo.password}`)
      }
      ticker.start()
    })
    app.addHook('onClose', async () => {
      ticker.stop()
      db.close()
    })
  },
  { name: 'emulator', dependencies: ['fault-layer'] },
)
