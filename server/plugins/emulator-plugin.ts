import { TOKEN_HEADER } from '@shared/constants'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config'
import { demoLogin } from '../emulator/account/account-seeder'
import type { Emulator } from '../emulator/emulator'
import { sessionExpired } from '../http/api-error'

export type { Emulator } from '../emulator/emulator'

export interface AuthedPlayer {
  readonly id: number
  readonly token: string
}

declare module 'fastify' {
  interface FastifyInstance {
    emu: Emulator
    /** The session check: sets `request.player`, or throws the session-lost answer. */
    authenticate: (request: FastifyRequest) => void
  }
  interface FastifyRequest {
    player: AuthedPlayer | null
  }
}

/**
 * Puts an emulator (built by ../emulator/emulator.ts) behind the app: the session check, the fault
 * layer's session faults, seeding a fresh database, and the timed work while the server runs.
 */
export const emulatorPlugin = fp(
  async (app, opts: { config: Config; emu: Emulator }) => {
    const { config, emu } = opts
    const { db, clock, accounts, ticker } = emu
    const protection = emu.protection.guard
    app.decorate('emu', emu)
    app.decorateRequest('player', null)

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
      if (!emu.isSeeded()) {
        await emu.reset()
        const demo = demoLogin(config.FIXTURES_DIR)
        app.log.info(`seeded a fresh database; demo player: phone ${demo.phone}, password ${demo.password}`)
      }
      ticker.start()
      emu.roundTimer.start()
    })
    app.addHook('onClose', async () => {
      emu.roundTimer.stop()
      ticker.stop()
      db.close()
    })
  },
  { name: 'emulator', dependencies: ['fault-layer'] },
)
