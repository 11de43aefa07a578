import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAnswer } from '@server/test-support/answers'
import { createTestApp, type TestApp } from '@server/test-support/test-app'
import { getBalance } from '@shared/contract/account'
import type { Endpoint } from '@shared/contract/endpoint'
import { fundFlow, usdtPay } from '@shared/contract/wallet'
import { controlPath } from '@shared/emu-contract/control-endpoint'
import { confirmDeposit } from '@shared/emu-contract/wallet'
import { formatMoney, MICRO, toMicro } from '@shared/money'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  type FirstDepositRule,
  firstDepositBonusMicro,
  firstDepositRule,
  loadPromotionsFixture,
  promotionsFixtureSchema,
} from './first-deposit-bonus'

const FIXTURES = join(import.meta.dirname, '../../../fixtures')
const RULE: FirstDepositRule = {
  percentMicro: 10 * MICRO,
  maxMicro: 188 * MICRO,
  minDepositMicro: 10 * MICRO,
}

describe('firstDepositBonusMicro', () => {
  it('pays the percentage, rounded down to the micro-unit, up to the cap, from the minimum', () => {
    expect(firstDepositBonusMicro(toMicro('100'), RULE)).toBe(toMicro('10'))
    expect(firstDepositBonusMicro(toMicro('25.555555'), RULE)).toBe(toMicro('2.555555'))
    expect(firstDepositBonusMicro(toMicro('10.000009'), RULE)).toBe(toMicro('1.000000'))
    expect(firstDepositBonusMicro(toMicro('1880'), RULE)).toBe(toMicro('188'))
    expect(firstDepositBonusMicro(toMicro('1000000'), RULE)).toBe(toMicro('188'))
    expect(firstDepositBonusMicro(toMicro('10'), RULE)).toBe(toMicro('1'))
    expect(firstDepositBonusMicro(toMicro('9.999999'), RULE)).toBe(0)
  })

  it('is never more than the percentage nor the cap, for any deposit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e15 }), (micro) => {
        const bonus = firstDepositBonusMicro(micro, RULE)
        expect(Number.isSafeInteger(bonus)).toBe(true)
        expect(bonus).toBeGreaterThanOrEqual(0)
        expect(bonus).toBeLessThanOrEqual(RULE.maxMicro)
        expect(bonus * 10).toBeLessThanOrEqual(micro)
      }),
    )
  })
})

describe('fixtures/promotions.json', () => {
  const promotions = loadPromotionsFixture(FIXTURES)
  const rule = promotions.first_deposit

  it('is valid, and refuses a percentage over 100', () => {
    expect(rule).not.toBeNull()
    expect(
      promotionsFixtureSchema.safeParse({
        first_deposit: { activity_id: 1, percent: '120', max_bonus: '1', min_deposit: '1' },
      }).success,
    ).toBe(false)
  })

  it('says on the activity page exactly what the emulator pays', () => {
    if (!rule) throw new Error('no first-deposit rule')
    const activities = JSON.parse(readFileSync(join(FIXTURES, 'content/activities.json'), 'utf8')) as {
      activities: { id: number; title: string; summary: string; content: string }[]
    }
    const activity = activities.activities.find((a) => a.id === rule.activity_id)
    if (!activity) throw new Error(`no activity ${rule.activity_id}`)
    const html = readFileSync(join(FIXTURES, 'content/html', activity.content), 'utf8')
    const percent = `${rule.percent}%`
    expect(activity.title).toContain(percent)
    expect(activity.summary).toContain(percent)
    expect(activity.summary).toContain(`最高 ${rule.max_bonus} USDT`)
    expect(html).toContain(`<strong>${percent}</strong>`)
    expect(html).toContain(`最高 <strong>${rule.max_bonus} USDT</strong>`)
    expect(html).toContain(`不低于 ${rule.min_deposit} USDT`)
    // Where the cap starts to bite, as the page's table says.
    const capFrom = formatMoney(
      Math.ceil((toMicro(rule.max_bonus) * 100 * MICRO) / toMicro(rule.percent) / MICRO) * MICRO,
    ).replace(/\.00$/, '')
    expect(html).toContain(`${capFrom} USDT 及以上`)
    // Rules the emulator does not enforce are not promised.
    expect(html).not.toContain('流水后方可提现')
    expect(html).not.toContain('同一 IP')
    expect(firstDepositRule(promotions)).toEqual({
      percentMicro: toMicro(rule.percent),
      maxMicro: toMicro(rule.max_bonus),
      minDepositMicro: toMicro(rule.min_deposit),
    })
  })
})

describe('the first-deposit bonus in the emulator', () => {
  let t: TestApp
  let token: string
  let playerId: number

  beforeEach(async () => {
    t = await createTestApp()
    ;({ token, playerId } = await t.login())
  })
  afterEach(async () => {
    await t.close()
  })

  const get = async <E extends Endpoint>(e: E, query: Record<string, string> = {}) => {
    const qs = new URLSearchParams(query).toString()
    const res = await t.app.inject({ url: qs ? `${e.path}?${qs}` : e.path, headers: { token } })
    return parseAnswer<E['data']>(e, res.json())
  }
  const topUp = async (amount: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: usdtPay.path,
      payload: new URLSearchParams({ amount }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', token },
    })
    return parseAnswer(usdtPay, res.json()).data
  }
  const confirm = async (id: number) => {
    const res = await t.app.inject({ method: 'POST', url: controlPath(confirmDeposit, { id }) })
    return parseAnswer(confirmDeposit, res.json()).data.credited
  }
  const balance = async () => {
    const res = await t.app.inject({ url: `/api/api/getBalance?player_id=${playerId}`, headers: { token } })
    return parseAnswer(getBalance, res.json()).data.balance
  }
  const bonusRows = async () => (await get(fundFlow, { type: 'deposit_bonus' })).data.list

  it('pays 10% of the first credited top-up once, as its own fund-flow row, and never again', async () => {
    const before = toMicro(await balance())
    const first = await topUp('100')
    const second = await topUp('50')
    expect(await balance()).toBe(formatMoney(before))
    expect(await bonusRows()).toEqual([])

    expect(await confirm(first.id)).toBe(true)
    expect(await confirm(first.id)).toBe(false)
    expect(await confirm(second.id)).toBe(true)
    expect(await balance()).toBe(formatMoney(before + toMicro('160')))

    const rows = await bonusRows()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      type: 'deposit_bonus',
      type_label: '首充赠送',
      currency: 'USDT',
      amount: '10.00',
      ref: first.order_no,
      memo: '首充赠送：充值 100.00 USDT 赠送 10.00 USDT',
    })
    const third = await topUp('1000')
    await confirm(third.id)
    expect(await bonusRows()).toHaveLength(1)
    expect(t.app.emu.ledger.drift()).toEqual([])
  })

  it('caps the bonus at 188 USDT', async () => {
    const order = await topUp('5000')
    await confirm(order.id)
    expect((await bonusRows()).map((r) => r.amount)).toEqual(['188.00'])
    expect(t.app.emu.ledger.drift()).toEqual([])
  })

  it('pays nothing when the first top-up is under the minimum, nor on a later one', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/__emu/wallet/settings',
      payload: { deposit: { min_amount: '1' } },
    })
    const small = await topUp('5')
    expect(small.status).toBe('pending')
    await confirm(small.id)
    const big = await topUp('100')
    await confirm(big.id)
    expect(await bonusRows()).toEqual([])
    expect(t.app.emu.ledger.drift()).toEqual([])
  })

  it('a top-up confirmed by the chain on its own pays the bonus in the same transaction', async () => {
    const order = await topUp('20')
    t.clock.advance(120_000)
    // Any call runs the due work; the balance read is enough.
    expect(toMicro(await balance())).toBeGreaterThan(0)
    const rows = await bonusRows()
    expect(rows.map((r) => r.amount)).toEqual(['2.00'])
    const topups = (await get(fundFlow, { type: 'topup' })).data.list
    expect(topups[0]?.ref).toBe(order.order_no)
    // The bonus row comes right after the top-up's, so its balance is the top-up's plus the bonus.
    expect(toMicro(rows[0]?.balance_after ?? '0')).toBe(
      toMicro(topups[0]?.balance_after ?? '0') + toMicro('2'),
    )
    expect(t.app.emu.ledger.drift()).toEqual([])
  })
})
