import { baseUrl, registerPlayer, scopeHeader } from './support/emu'
import { expect, openLoggedIn, test } from './support/test'

/** The tester's API and the public games endpoints, called directly. */
async function call<T>(method: string, path: string, scope: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...scopeHeader(scope) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json()) as { code: number; data: T }
  if (!res.ok || (json.code !== 1 && json.code !== 200)) throw new Error(`${path}: ${JSON.stringify(json)}`)
  return json.data
}

/** The world clock: draws follow it, so it is moved without a scope. */
async function world<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json()) as { code: number; data: T }
  if (!res.ok) throw new Error(`${path}: ${JSON.stringify(json)}`)
  return json.data
}

interface Round {
  round_id: string
  ms_to_seal: number
  ms_to_draw: number
}

interface Draw {
  round_id: string
  numbers: number[]
}

const GAME = 'kuaisan'

test('a bet is placed, drawn, paid, listed and verified in the browser', async ({ page, scope }) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await call('POST', '/__emu/scenarios/deposit-arrives/activate', scope, {
    scope,
    params: { phone: player.phone, password: player.password, amount: '100' },
  })
  // The world clock is only ever moved forward here, never frozen: other tests run on the same
  // server at the same time and wait for real draws. A round with less than 20 s left is skipped.
  let round = await call<Round>('GET', `/api/games/round?game=${GAME}`, scope)
  if (round.ms_to_seal < 20_000) {
    await world('POST', '/__emu/clock/advance', { ms: round.ms_to_draw + 1_000 })
    round = await call<Round>('GET', `/api/games/round?game=${GAME}`, scope)
  }

  await openLoggedIn(page, `/games/${GAME}`, player)
  await expect(page.getByTestId('round-id')).toHaveText(round.round_id)
  await expect(page.getByTestId('round-state')).toHaveText('投注中')
  // 100 topped up and the 10% first-deposit bonus.
  await expect(page.locator('.games-slip__balance')).toHaveText(/^余额\s*110\.00\s*USDT$/)

  await page.locator('[data-bet-type="big"]').click()
  await page.locator('.games-chip', { hasText: /^10$/ }).click()
  await page.getByRole('button', { name: /投注 1 注，共 10\.00/ }).click()
  const sheet = page.locator('.games-confirm')
  await expect(sheet).toContainText(`第 ${round.round_id} 期`)
  await expect(sheet).toContainText('赔率 1.95 · 可赢 19.50')
  await sheet.getByRole('button', { name: '确认投注' }).click()
  await expect(page.locator('.games-slip__balance')).toHaveText(/^余额\s*100\.00\s*USDT$/)
  await expect(page.getByTestId('my-bet-status')).toHaveText('待开奖')

  // Past the draw: the page finds the result by itself.
  await world('POST', '/__emu/clock/advance', { ms: round.ms_to_draw + 500 })
  const draws = await call<{ list: Draw[] }>('GET', `/api/games/results?game=${GAME}&page_size=5`, scope)
  const draw = draws.list.find((d) => d.round_id === round.round_id)
  expect(draw, 'the round was drawn').toBeTruthy()
  const numbers = draw?.numbers ?? []
  const won = numbers.reduce((a, b) => a + b, 0) >= 11

  const previous = page.getByTestId('previous-draw')
  await expect(previous).toHaveAttribute('data-round-id', round.round_id, { timeout: 15_000 })
  await expect(previous.getByTestId('draw-numbers')).toContainText(numbers.join(''))
  await expect(page.getByTestId('my-bet-status')).toHaveText(won ? '已中奖 +19.50' : '未中奖')
  await expect(page.locator('.games-slip__balance')).toHaveText(
    won ? /^余额\s*119\.50\s*USDT$/ : /^余额\s*100\.00\s*USDT$/,
  )

  await page.goto('/bethistory')
  const row = page.getByTestId('bet-row').first()
  await expect(row).toContainText(`第 ${round.round_id} 期`)
  await expect(row).toContainText(won ? '已中奖' : '未中奖')
  await row.getByRole('link', { name: '验证结果' }).click()

  await expect(page).toHaveURL(new RegExp(`/verify\\?game=${GAME}&round=${round.round_id}$`))
  await expect(page.getByTestId('verify-summary')).toHaveText('验证通过：浏览器计算结果与服务器一致', {
    timeout: 15_000,
  })
  await expect(page.getByTestId('verify-recomputed')).toHaveText(
    `浏览器计算的开奖号码：${numbers.join(', ')}`,
  )
})

test('binds a bet address and sends a transfer bet that is settled at its block', async ({ page, scope }) => {
  test.setTimeout(60_000)
  const player = await registerPlayer()
  await call('POST', '/__emu/scenarios/deposit-arrives/activate', scope, {
    scope,
    params: { phone: player.phone, password: player.password, amount: '100' },
  })
  await openLoggedIn(page, '/bet-address', player)
  await page.getByRole('button', { name: '绑定新地址' }).click()
  await page.getByPlaceholder('TRON 地址（T 开头）').fill('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')
  await page.getByPlaceholder('选填，最多20个字符').fill('测试钱包')
  await page.getByRole('button', { name: '保存' }).click()
  const bound = page.getByTestId('bet-addresses')
  await expect(bound).toContainText('测试钱包')

  await page.goto('/test-bet')
  // The first receiving address plays big/small: a units digit of 5 is "big".
  await page.getByPlaceholder('转账金额（个位数决定投注项）').fill('15')
  await page.getByRole('button', { name: '发送转账投注' }).click()
  const result = page.getByTestId('transfer-result')
  await expect(result).toContainText('转账 15.00 USDT')
  await expect(result).toContainText('大')

  await world('POST', '/__emu/clock/advance', { ms: 10_000 })
  await expect(result).toContainText(/已中奖|未中奖/, { timeout: 15_000 })
})
