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

/** The demo player's seeded team (runs after the account seeder, whose players it hangs below). */
export const agentSeeder: Seeder = async ({ fixturesDir, now }) => {
  const team = loadAgentFixture(fixturesDir).demo_team
  const hashed = await Promise.all(team.map(async (m) => ({ ...m, hash: await cachedHash(m.password) })))
  return (db) => {
    const inviterOf = db.prepare<[string], { id: number }>('SELECT id FROM players WHERE invite_code = ?')
    const insert = db.prepare(
      `INSERT INTO players (phone, nickname, password_hash, invite_code, inviter_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
    hashed.forEach((m, i) => {
      const inviter = inviterOf.get(m.inviter)
      if (!inviter) throw new Error(`fixture agent.json: demo_team ${m.phone}: unknown inviter ${m.inviter}`)
      // Joined a day apart, oldest first, so the team list has an order to show.
      insert.run(
        m.phone,
        m.nickname,
        m.hash,
        m.invite_code,
        inviter.id,
        now - (hashed.length - i) * 86_400_000,
      )
    })
  }
}
