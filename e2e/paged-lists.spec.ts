import { agentInfo } from '@shared/contract/agent'
import { api } from './support/api'
import { login, registerPlayer } from './support/emu'
import { expect, openLoggedIn, test } from './support/test'

/**
 * Paged lists read to their end (client/src/lib/use-paged-list.ts): more rows than the contract's
 * largest page (100), so a list that grew its page size instead of asking for the next page stops
 * short.
 */

const TEAM_SIZE = 150
/** Registrations in flight at once: each hashes a password, and the machine is shared. */
const AT_ONCE = 4

async function inviteCodeOf(token: string): Promise<string> {
  return (await api(agentInfo, { token })).invite_code
}

test(`performance record: 加载更多 reads a team of ${TEAM_SIZE} to its last member`, async ({ page }) => {
  test.setTimeout(240_000)
  const inviter = await registerPlayer()
  const code = await inviteCodeOf((await login(inviter.phone, inviter.password)).token)
  for (let joined = 0; joined < TEAM_SIZE; joined += AT_ONCE) {
    const batch = Math.min(AT_ONCE, TEAM_SIZE - joined)
    await Promise.all(Array.from({ length: batch }, () => registerPlayer('friend1234', code)))
  }

  await openLoggedIn(page, '/performance-record', inviter)
  await page.getByText('下级查询', { exact: true }).click()
  await expect(page.getByText(`团队成员（${TEAM_SIZE}）`)).toBeVisible()
  const members = page.locator('.agent__list .adm-list-item')
  const more = page.getByRole('button', { name: '加载更多' })
  await expect(members).toHaveCount(20)
  for (let shown = 20; shown < TEAM_SIZE; shown = Math.min(TEAM_SIZE, shown + 20)) {
    await more.click()
    await expect(members).toHaveCount(Math.min(TEAM_SIZE, shown + 20))
  }
  await expect(more).toHaveCount(0)
  // Every member once: the phones' last four digits (the rest is masked) are all different.
  const tails = (await members.allTextContents()).map((text) => /\d{3}\*+(\d{4})/.exec(text)?.[1])
  expect(new Set(tails).size).toBe(TEAM_SIZE)
})
