import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '@server/app'
import { testConfig } from '@server/config'
import { openDatabase } from '@server/db/database'
import { DEMO } from '@server/test-support/test-app'
import { toMicro } from '@shared/money'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LedgerRepository } from '../ledger/ledger-repository'
import type { Outcome } from './test-support/hammer-worker'
import { finished, spawnTs } from './test-support/spawn'

const WORKERS = 4
const ROUNDS = 6
const WITHDRAW = '60'
const BET_MICRO = 35_000_000

let dir: string
let dbPath: string
let walletId: number
let playerId: number
let startMicro: number

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-concurrency-'))
  dbPath = join(dir, 'emulator.db')
  // Seed the file and bind an address, then let the workers at it.
  const app = await buildApp(testConfig({ DB_PATH: dbPath }))
  await app.ready()
  const player = app.emu.accounts.accounts.findByPhone(DEMO.phone)
  if (!player) throw new Error('demo player missing')
  startMicro = player.balance_micro
  playerId = player.id
  walletId = app.emu.db
    .prepare(
      'INSERT INTO withdrawal_addresses (player_id, address, label, is_default, created_at) VALUES (?, ?, ?, 1, 0)',
    )
    .run(player.id, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'w').lastInsertRowid as number
  await app.close()
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('several processes, each with its own connection, spending one account', () => {
  it('never overdraw, and every success and refusal is accounted for', async () => {
    const worker = join(import.meta.dirname, 'test-support', 'hammer-worker.ts')
    const runs = await Promise.all(
      Array.from({ length: WORKERS }, () =>
        finished(
          spawnTs(worker, {
            DB_PATH: dbPath,
            ROUNDS: String(ROUNDS),
            WALLET_ID: String(walletId),
            WITHDRAW_AMOUNT: WITHDRAW,
            BET_MICRO: String(BET_MICRO),
            PLAYER_ID: String(playerId),
            PAY: DEMO.payPassword,
          }),
        ),
      ),
    )
    const outcomes: Outcome[] = []
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0)
      const line = run.stdout.trim().split('\n').pop() ?? '[]'
      outcomes.push(...(JSON.parse(line) as Outcome[]))
    }
    expect(outcomes).toHaveLength(WORKERS * ROUNDS * 2)

    const demand = outcomes.reduce((sum, o) => sum + o.debitMicro, 0)
    expect(demand).toBeGreaterThan(startMicro) // the balance covers only some of them
    const ok = outcomes.filter((o) => o.ok)
    const refused = outcomes.filter((o) => !o.ok)
    expect(ok.length).toBeGreaterThan(0)
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused) expect(r.msg).toBe('余额不足')

    const db = openDatabase(dbPath)
    try {
      const player = db
        .prepare<[string], { id: number; balance_micro: number }>(
          'SELECT id, balance_micro FROM players WHERE phone = ?',
        )
        .get(DEMO.phone)
      const spent = ok.reduce((sum, o) => sum + o.debitMicro, 0)
      expect(player?.balance_micro).toBe(startMicro - spent)
      expect(player?.balance_micro).toBeGreaterThanOrEqual(0)
      // Balances only fall here, so each refusal must have been a real shortfall: what is left now
      // can't cover any attempt that was refused.
      for (const r of refused) expect(player?.balance_micro).toBeLessThan(r.debitMicro)
      // Each success left exactly its ledger rows, and nothing else moved.
      const count = (type: string) =>
        db
          .prepare<[number, string], number>('SELECT COUNT(*) FROM ledger WHERE player_id = ? AND type = ?')
          .pluck()
          .get(player?.id ?? 0, type)
      const okWithdrawals = ok.filter((o) => o.op === 'withdraw').length
      expect(count('withdrawal')).toBe(okWithdrawals)
      expect(count('withdrawal_fee')).toBe(okWithdrawals)
      expect(count('bet')).toBe(ok.filter((o) => o.op === 'bet').length)
      expect(db.prepare('SELECT COUNT(*) FROM withdrawals').pluck().get()).toBe(okWithdrawals)
      expect(db.prepare('SELECT SUM(amount_micro) FROM withdrawals').pluck().get()).toBe(
        okWithdrawals * toMicro(WITHDRAW),
      )
      expect(new LedgerRepository(db).drift()).toEqual([])
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      db.close()
    }
  }, 60_000)
})
