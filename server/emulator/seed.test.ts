import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createTestApp, DEMO, type TestApp } from '@server/test-support/test-app'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_DIR } from '../paths'

/**
 * What the seeders write, each domain its own rows through the repositories the composition root
 * hands them: players and their opening balances (account, through the ledger), the demo team
 * (agent, through the account repository), bet and withdrawal addresses, and the announcements
 * (content).
 */
describe('the seed', () => {
  let t: TestApp
  const fixture = <T>(name: string): T =>
    JSON.parse(readFileSync(join(ROOT_DIR, 'fixtures', name), 'utf8')) as T

  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  const players = () => t.app.emu.accounts.accounts

  it("writes the fixture's players with their payment password, VIP level, inviter and opening balance", () => {
    const demo = players().findByPhone(DEMO.phone)
    expect(demo?.vip_level).toBe(1)
    expect(demo?.pay_password_hash).toEqual(expect.any(String))
    expect(players().balancesOf(demo?.id ?? 0)?.balance_micro).toBe(1_000_000_000)
    const invited = players().findByPhone('13900139000')
    expect(invited?.inviter_id).toBe(demo?.id)
    expect(t.app.emu.ledger.drift()).toEqual([])
  })

  it("hangs the agent fixture's demo team below its inviters", () => {
    const { demo_team } = fixture<{ demo_team: { phone: string; inviter: string }[] }>('agent.json')
    expect(demo_team.length).toBeGreaterThan(0)
    for (const member of demo_team) {
      const row = players().findByPhone(member.phone)
      expect(row?.inviter_id, member.phone).toBe(players().findByInviteCode(member.inviter)?.id)
    }
  })

  it('binds the bet and withdrawal addresses of the fixtures', () => {
    const demo = players().findByPhone(DEMO.phone)
    expect(t.app.emu.games.betAddresses.list(demo?.id ?? 0).map((a) => a.label)).toEqual(['我的钱包'])
    const other = players().findByPhone('13900139000')
    expect(
      t.app.emu.wallet.withdrawals.withdrawals.addresses(other?.id ?? 0).map((a) => [a.label, a.is_default]),
    ).toEqual([['常用钱包', 1]])
  })

  it('publishes the fixture announcements, pinned first', () => {
    const { announcements } = fixture<{ announcements: { title: string }[] }>('announcements.json')
    const listed = t.app.emu.content.announcements.list(t.clock.now())
    expect(listed.map((a) => a.title).sort()).toEqual(announcements.map((a) => a.title).sort())
    expect(listed[0]?.pinned).toBe(true)
  })

  it('writes the same rows again on a reset', async () => {
    const demo = players().findByPhone(DEMO.phone)?.id ?? 0
    expect(players().balancesOf(demo)?.balance_micro).toBe(1_000_000_000)
    await t.app.emu.reset()
    const again = players().findByPhone(DEMO.phone)?.id ?? 0
    expect(players().balancesOf(again)?.balance_micro).toBe(1_000_000_000)
    expect(t.app.emu.content.announcements.list(t.clock.now())).toHaveLength(3)
  })
})
