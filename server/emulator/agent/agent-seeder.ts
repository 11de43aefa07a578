import type { AccountRepository } from '../account/account-repository'
import { hashPassword } from '../account/passwords'
import type { Seeder } from '../seed'
import { loadAgentFixture } from './agent-fixtures'

const hashes = new Map<string, Promise<string>>()
const cachedHash = (password: string) => {
  let h = hashes.get(password)
  if (!h) {
    h = hashPassword(password)
    hashes.set(password, h)
  }
  return h
}

/**
 * The demo player's seeded team (runs after the account seeder, whose players it hangs below),
 * written through the account domain's repository.
 */
export const agentSeeder =
  (accounts: AccountRepository): Seeder =>
  async ({ fixturesDir, now }) => {
    const team = loadAgentFixture(fixturesDir).demo_team
    const hashed = await Promise.all(team.map(async (m) => ({ ...m, hash: await cachedHash(m.password) })))
    return () => {
      hashed.forEach((m, i) => {
        const inviter = accounts.findByInviteCode(m.inviter)
        if (!inviter)
          throw new Error(`fixture agent.json: demo_team ${m.phone}: unknown inviter ${m.inviter}`)
        // Joined a day apart, oldest first, so the team list has an order to show.
        accounts.create({
          phone: m.phone,
          nickname: m.nickname,
          passwordHash: m.hash,
          inviteCode: m.invite_code,
          inviterId: inviter.id,
          at: now - (hashed.length - i) * 86_400_000,
        })
      })
    }
  }
