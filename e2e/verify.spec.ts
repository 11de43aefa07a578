import { createHash, createHmac, randomBytes } from 'node:crypto'
import type { Page, Route } from '@playwright/test'
import type { DataOf } from '@shared/contract/endpoint'
import { betHistory, currentRound, gameCommitment, placeBets, verifyRound } from '@shared/contract/games'
import { blockHashSync, type SyncHasher, walkChainSync } from '@shared/games/chain'
import { drawOutcome } from '@shared/games/outcome'
import { STORAGE_KEY } from '@shared/storage-keys'
import { api } from './support/api'
import { registerPlayer, topUp } from './support/emu'
import { expect, openLoggedIn, test } from './support/test'

/**
 * The verify page against a lying server (docs/game-rules.md, "Checking a round"). The real
 * server draws block-game rounds every 3 s of the world clock, which this spec never moves; each
 * test lets the page pin the real commitment on a game page, then serves it forged answers
 * through request interception, and every forgery must end in a visible failure, never 验证通过.
 */

type Proof = DataOf<typeof verifyRound>
type Commitment = DataOf<typeof gameCommitment>

const GAME = 'qukuai'

const nodeHasher: SyncHasher = {
  sha256Hex: (text) => createHash('sha256').update(text).digest('hex'),
  hmacSha256Hex: (key, message) => createHmac('sha256', key).update(message).digest('hex'),
}

interface Drawn {
  commitment: Commitment
  /** A drawn round with at least one block before it and three drawn after it. */
  proof: Proof
  height: number
  /** Its block number on the chain. */
  k: number
}

/** The real commitment and a drawn round, once the chain has a few drawn blocks. */
async function drawnRound(): Promise<Drawn> {
  const commitment = await api(gameCommitment)
  let newest = 0
  await expect
    .poll(
      async () => {
        newest = (await api(currentRound, { query: { game: GAME } })).previous?.height ?? 0
        return newest - commitment.start_height
      },
      { timeout: 30_000, intervals: [1_000], message: 'the chain has drawn six blocks' },
    )
    .toBeGreaterThanOrEqual(6)
  const height = newest - 3
  const proof = await api(verifyRound, { query: { game: GAME, round_id: String(height) } })
  return { commitment, proof, height, k: height - commitment.start_height }
}

/** The key revealed for another block, as the real server reveals it once that block is drawn. */
const keyOf = async (height: number): Promise<string> =>
  (await api(verifyRound, { query: { game: GAME, round_id: String(height) } })).key

/** The result a key decides at the round's height: what a lying server would publish with it. */
function resultFrom(proof: Proof, key: string): Proof {
  const hash = blockHashSync(nodeHasher, proof.result.height, key)
  return { ...proof, key, result: { ...proof.result, block_hash: hash, ...drawOutcome(GAME, hash, []) } }
}

/** Anchors as the server lays them out (blocks k − 1, k − 10, k − 100 … and 1), along `key`'s chain. */
function anchorsAlong(key: string, k: number, startHeight: number): Proof['anchors'] {
  const out: Proof['anchors'] = []
  for (let step = 1; k - step >= 1; step *= 10)
    out.push({
      block_number: k - step,
      height: startHeight + k - step,
      key: walkChainSync(nodeHasher, key, step),
    })
  if (k > 1 && out.at(-1)?.block_number !== 1)
    out.push({ block_number: 1, height: startHeight + 1, key: walkChainSync(nodeHasher, key, k - 1) })
  return out
}

/** A chain of the server's making that is not the committed one: its key for block k, its terminal hash. */
function anotherChain(k: number): { key: string; terminal: string } {
  const key = randomBytes(32).toString('hex')
  return { key, terminal: walkChainSync(nodeHasher, key, k) }
}

/** A complete, self-consistent proof of the round from another chain. */
function proofFromChain(d: Drawn, chain: { key: string; terminal: string }, commitment: Commitment): Proof {
  return {
    ...resultFrom(d.proof, chain.key),
    commitment,
    anchors: anchorsAlong(chain.key, d.k, d.commitment.start_height),
  }
}

/** Answers the endpoint's calls with the real answer's data replaced. */
async function forge<T>(page: Page, path: string, change: (data: T, route: Route) => T | Promise<T>) {
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      const response = await route.fetch()
      const envelope = (await response.json()) as { data: T }
      await route.fulfill({ response, json: { ...envelope, data: await change(envelope.data, route) } })
    },
  )
}

const serveProof = (page: Page, proof: (real: Proof, route: Route) => Proof | Promise<Proof>) =>
  forge<Proof>(page, verifyRound.path, proof)

/** Opens a game page and waits until it shows (and so holds) the commitment. */
async function pinCommitment(page: Page, terminal: string): Promise<void> {
  await page.goto(`/games/${GAME}`)
  await expect(page.getByTestId('commitment')).toHaveAttribute('data-hash', terminal)
}

const verifyUrl = (roundId: number | string) => `/verify?game=${GAME}&round=${roundId}`

const chainStep = (page: Page) => page.locator('[data-testid="verify-step"][data-kind="chain"]')

/** The page says, in red and as an alert, that the round failed: nowhere 验证通过. */
async function expectLoudFailure(page: Page): Promise<void> {
  const summary = page.getByTestId('verify-summary')
  await expect(summary).toHaveText(/^验证失败/, { timeout: 15_000 })
  await expect(summary).toHaveClass(/games-bad/)
  await expect(page.getByTestId('verify-failed')).toBeVisible()
  await expect(page.getByTestId('verify-failed')).toHaveAttribute('role', 'alert')
  await expect(page.getByText('验证通过')).toHaveCount(0)
}

test('the real proof passes, so every failure below is the forgery’s', async ({ page }) => {
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  await page.goto(verifyUrl(d.height))
  await expect(page.getByTestId('verify-summary')).toHaveText('验证通过：浏览器计算结果与服务器一致', {
    timeout: 15_000,
  })
  await expect(page.getByTestId('verify-failed')).toHaveCount(0)
  await expect(page.getByTestId('verify-no-bets')).toContainText('未登录')
  // Held only since after the draw: said, though the arithmetic passes.
  await expect(page.getByTestId('commitment-late')).toBeVisible()
})

test('an anchor at a negative or zero block fails, though the key it reveals decides a consistent result', async ({
  page,
}) => {
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  // The audit's forgery: block k + 3's key passed off as block k's. Hashed k + 3 times it reaches
  // the terminal hash, which an anchor at "block −3" claims is reached in −3 steps.
  const deeper = await keyOf(d.height + 3)
  await serveProof(page, (real) => ({
    ...resultFrom(real, deeper),
    anchors: [{ block_number: -3, height: d.commitment.start_height - 3, key: d.commitment.terminal_hash }],
  }))
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  await expect(chainStep(page).last()).toHaveAttribute('data-ok', 'false')
  await expect(chainStep(page).last()).toContainText('锚点区块 -3 不是承诺内的区块')
  // Everything else the lie computes agrees with itself.
  await expect(page.locator('[data-testid="verify-step"][data-kind="numbers"]')).toHaveAttribute(
    'data-ok',
    'true',
  )

  // Block 0 is the commitment itself, not a committed block: an anchor there is refused too.
  await page.unrouteAll({ behavior: 'wait' })
  await serveProof(page, (real) => ({
    ...real,
    anchors: [{ block_number: 0, height: d.commitment.start_height, key: d.commitment.terminal_hash }],
  }))
  await page.reload()
  await expectLoudFailure(page)
  await expect(chainStep(page).last()).toContainText('锚点区块 0 不是承诺内的区块')
})

test("another round's proof fails on this round's page", async ({ page }) => {
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  // The page asks for round h; the server answers with round h − 1's real, consistent proof.
  const previous = String(d.height - 1)
  await serveProof(page, async (_real, route) => {
    const url = new URL(route.request().url())
    url.searchParams.set('round_id', previous)
    const response = await route.fetch({ url: url.toString() })
    return ((await response.json()) as { data: Proof }).data
  })
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  const round = page.locator('[data-testid="verify-step"][data-kind="round"]')
  await expect(round).toHaveAttribute('data-ok', 'false')
  await expect(round).toContainText(`证明是第 ${previous} 期的，本页是第 ${d.height} 期`)
})

test('a key from another chain fails, even with that chain’s own commitment and anchors', async ({
  page,
}) => {
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  const other = anotherChain(d.k)
  await serveProof(page, () =>
    proofFromChain(d, other, {
      ...d.commitment,
      terminal_hash: other.terminal,
      created_at: d.commitment.created_at + 1,
    }),
  )
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  await expect(chainStep(page).last()).toHaveAttribute('data-ok', 'false')
  await expect(chainStep(page).last()).toContainText(`本机保存：${d.commitment.terminal_hash}`)
})

test('a round with no commitment held on this device fails with a warning', async ({ page }) => {
  const d = await drawnRound()
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  await expect(page.getByTestId('commitment-missing')).toBeVisible()
})

test('a changed block hash fails', async ({ page }) => {
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  const changed = `${d.proof.result.block_hash.slice(0, -2)}${d.proof.result.block_hash.endsWith('00') ? '11' : '00'}`
  await serveProof(page, (real) => ({ ...real, result: { ...real.result, block_hash: changed } }))
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  const step = page.locator('[data-testid="verify-step"][data-kind="block-hash"]')
  await expect(step).toHaveAttribute('data-ok', 'false')
  await expect(step).toContainText(`（服务器：${changed}）`)
})

test("labels that disagree with the player's settled bet fail, though the proof itself is honest", async ({
  page,
}) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await topUp(player, '100')
  // The player opens the game before betting, as in the app: the commitment is held before the draw.
  const commitment = await api(gameCommitment)
  const { token } = await openLoggedIn(page, `/games/${GAME}`, player)
  await expect(page.getByTestId('commitment')).toHaveAttribute('data-hash', commitment.terminal_hash)
  const round = await api(currentRound, { query: { game: GAME } })
  const roundId = round.ms_to_seal < 1_500 ? round.next.round_id : round.round_id
  await api(placeBets, {
    token,
    body: { game: GAME, round_id: roundId, bets: [{ bet_type: 'big', amount: '10' }] },
  })
  await expect
    .poll(
      async () =>
        (await api(betHistory, { token, query: { game: GAME } })).list.find((b) => b.round_id === roundId)
          ?.status,
      { timeout: 20_000, intervals: [1_000], message: 'the bet is settled' },
    )
    .not.toBe('pending')

  await page.goto(verifyUrl(roundId))
  // The player's own bet, settled as the numbers decide: the check passes with it.
  const bets = page.locator('[data-testid="verify-step"][data-kind="bets"]')
  await expect(page.getByTestId('verify-summary')).toHaveText(/^验证通过/, { timeout: 15_000 })
  await expect(bets).toHaveAttribute('data-ok', 'true')
  await expect(bets).toContainText('大 10.00')
  await expect(page.getByTestId('commitment-late')).toHaveCount(0)

  // The server's bet history says the opposite of what its (honest) numbers and labels decide.
  await forge<DataOf<typeof betHistory>>(page, betHistory.path, (data) => ({
    ...data,
    list: data.list.map((b) =>
      b.round_id === roundId
        ? b.status === 'won'
          ? { ...b, status: 'lost', payout: '0.00' }
          : { ...b, status: 'won', payout: (Number(b.stake) * Number(b.odds)).toFixed(2) }
        : b,
    ),
  }))
  await page.reload()
  await expectLoudFailure(page)
  await expect(page.locator('[data-testid="verify-step"][data-kind="labels"]')).toHaveAttribute(
    'data-ok',
    'true',
  )
  await expect(bets).toHaveAttribute('data-ok', 'false')
  await expect(bets).toContainText('结算与开奖号码不符')
})

test('a swapped commitment after 20 unrelated ones is still caught: every chain is kept', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  let served: Commitment = d.commitment
  await forge<Commitment>(page, gameCommitment.path, () => served)
  for (let i = 1; i <= 20; i++) {
    served = {
      ...d.commitment,
      terminal_hash: nodeHasher.sha256Hex(`unrelated ${i}`),
      start_height: d.commitment.start_height + 10_000_000 * i,
      created_at: d.commitment.created_at + i,
    }
    await page.reload()
    await expect(page.getByTestId('commitment')).toHaveAttribute('data-hash', served.terminal_hash)
  }
  // Now the same chain (start and creation) with another terminal hash, and proofs to match it.
  const swapped = anotherChain(d.k)
  served = { ...d.commitment, terminal_hash: swapped.terminal }
  await page.reload()
  await expect(page.getByTestId('commitment-changed')).toBeVisible()
  await expect(page.getByTestId('commitment')).toHaveAttribute('data-hash', d.commitment.terminal_hash)
  const stored = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? '{}'),
    STORAGE_KEY.gameCommitments,
  )
  expect(Object.keys(stored)).toHaveLength(21)

  await serveProof(page, () => proofFromChain(d, swapped, served))
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  await expect(page.getByTestId('commitment-changed')).toBeVisible()
  await expect(page.getByTestId('held-commitment')).toHaveText(d.commitment.terminal_hash)
})

test('a corrupted stored commitment is a warning and is not re-pinned until the player says so', async ({
  page,
}) => {
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  const corrupted = await page.evaluate((key) => {
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, { terminal_hash: string }>
    for (const c of Object.values(stored)) c.terminal_hash = `${c.terminal_hash.slice(0, 40)}!corrupted`
    const text = JSON.stringify(stored)
    localStorage.setItem(key, text)
    return text
  }, STORAGE_KEY.gameCommitments)

  await page.reload()
  const damaged = page.getByTestId('commitment-damaged')
  await expect(damaged).toBeVisible()
  await expect(damaged).toContainText('警告：本机保存的承诺已损坏')
  await expect(damaged).toHaveCSS('border-top-color', 'rgb(207, 37, 51)')
  const kept = () => page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY.gameCommitments)
  expect(await kept()).toBe(corrupted)

  // Even the real proof cannot pass against a damaged record.
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  await expect(page.getByTestId('commitment-damaged')).toBeVisible()
  expect(await kept()).toBe(corrupted)

  // Only the player's own choice on the game page replaces it.
  await page.goto(`/games/${GAME}`)
  await page.getByRole('button', { name: '清除损坏的记录，改记服务器现在的承诺' }).click()
  await expect(page.getByTestId('commitment-damaged')).toHaveCount(0)
  expect(await kept()).toContain(d.commitment.terminal_hash)
})

test('a commitment changed between two visits is flagged, and proofs from the new chain fail', async ({
  page,
}) => {
  const d = await drawnRound()
  await pinCommitment(page, d.commitment.terminal_hash)
  const swapped = anotherChain(d.k)
  const second: Commitment = { ...d.commitment, terminal_hash: swapped.terminal }
  await forge<Commitment>(page, gameCommitment.path, () => second)
  await serveProof(page, () => proofFromChain(d, swapped, second))

  await page.goto(`/games/${GAME}`)
  await expect(page.getByTestId('commitment-changed')).toBeVisible()
  await expect(page.getByTestId('commitment')).toHaveAttribute('data-hash', d.commitment.terminal_hash)
  await page.goto(verifyUrl(d.height))
  await expectLoudFailure(page)
  await expect(page.getByTestId('commitment-changed')).toBeVisible()
  await expect(chainStep(page).last()).toHaveAttribute('data-ok', 'false')
})
