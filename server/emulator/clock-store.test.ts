import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '@server/app'
import { testConfig } from '@server/config'
import type { FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EmuClock } from './clock'
import { CLOCK_SEEN_EVERY_MS } from './clock-store'

let dir: string
let real: number
const realNow = () => real
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'clock-restart-'))
  real = Date.UTC(2026, 10, 27, 12, 0, 0)
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** A server on the same database file each time, with a clock of its own over `real`. */
async function start(clock = new EmuClock(realNow)): Promise<{ app: FastifyInstance; clock: EmuClock }> {
  const app = await buildApp(testConfig({ DB_PATH: join(dir, 'emulator.db') }), clock)
  await app.ready()
  return { app, clock }
}

describe('the world clock across a restart on the same database', () => {
  it('keeps an advanced clock: it does not fall back to real time', async () => {
    const first = await start()
    first.clock.advance(168_000)
    const before = first.clock.worldNow()
    await first.app.close()
    real += 2_000
    const second = await start()
    expect(second.clock.worldNow()).toBe(before + 2_000)
    expect(second.clock.state().mode).toBe('offset')
    await second.app.close()
  })

  it('keeps a frozen clock frozen at its time', async () => {
    const first = await start()
    first.clock.freeze(real + 3_600_000)
    await first.app.close()
    real += 60_000
    const second = await start()
    expect(second.clock.state()).toMatchObject({ mode: 'frozen', now: Date.UTC(2026, 10, 27, 13, 0, 0) })
    await second.app.close()
  })

  it('never starts earlier than the last time seen, even with the system clock set back', async () => {
    const first = await start()
    real += CLOCK_SEEN_EVERY_MS
    first.app.emu.ticker.tick()
    const seen = first.clock.worldNow()
    await first.app.close()
    real -= 60_000
    const second = await start()
    expect(second.clock.worldNow()).toBe(seen)
    await second.app.close()
  })

  it('leaves a clock that is already later as it is', async () => {
    const first = await start()
    first.clock.advance(10_000)
    await first.app.close()
    const ahead = new EmuClock(realNow)
    ahead.freeze(real + 86_400_000)
    const second = await start(ahead)
    expect(second.clock.state()).toMatchObject({ mode: 'frozen', now: real + 86_400_000 })
    await second.app.close()
  })
})
