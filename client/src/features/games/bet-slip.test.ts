import { describe, expect, it } from 'vitest'
import {
  blockedBy,
  checkSlip,
  emptySlip,
  potentialPayout,
  type SlipState,
  slipReducer,
  stakeFieldText,
  stakeText,
  totalText,
} from './bet-slip'

const run = (...actions: Parameters<typeof slipReducer>[1][]): SlipState =>
  actions.reduce(slipReducer, emptySlip)

describe('bet slip', () => {
  it('adds chips, halves, doubles and clears in exact cents', () => {
    const s = run({ type: 'chip', amount: '10' }, { type: 'chip', amount: '5' }, { type: 'half' })
    expect(stakeText(s)).toBe('7.50')
    expect(stakeText(slipReducer(s, { type: 'double' }))).toBe('15.00')
    expect(stakeText(run({ type: 'set', amount: '0.03' }, { type: 'half' }))).toBe('0.01')
    expect(slipReducer(s, { type: 'clear' })).toEqual(emptySlip)
  })

  it('keeps the stake as typed in its field while it is the stake, and shows the stake after a chip', () => {
    // Typing 2.50 one key at a time: the point and the 5 stay as typed.
    let typed = ''
    let s = emptySlip
    const stakes: string[] = []
    for (const key of ['2', '.', '5', '0']) {
      typed += key
      s = slipReducer(s, { type: 'set', amount: typed })
      expect(stakeFieldText(s, typed)).toBe(typed)
      stakes.push(stakeText(s))
    }
    // The point waiting for its decimals does not drop the stake to nothing meanwhile.
    expect(stakes).toEqual(['2.00', '2.00', '2.50', '2.50'])
    expect(stakeText(s)).toBe('2.50')
    // A chip changes the stake: the field shows it, not what was typed.
    s = slipReducer(s, { type: 'chip', amount: '5' })
    expect(stakeFieldText(s, typed)).toBe('7.50')
    expect(stakeFieldText(slipReducer(s, { type: 'clear' }), typed)).toBe('')
    expect(stakeFieldText(emptySlip, '')).toBe('')
  })

  it('toggles bet types and totals the stake over them', () => {
    const s = run(
      { type: 'toggle', betType: 'big' },
      { type: 'toggle', betType: 'odd' },
      { type: 'set', amount: '3' },
    )
    expect(s.selected).toEqual(['big', 'odd'])
    expect(totalText(s)).toBe('6.00')
    expect(slipReducer(s, { type: 'toggle', betType: 'big' }).selected).toEqual(['odd'])
  })

  it('max spreads the balance over the chosen bets within the limit', () => {
    const two = run({ type: 'toggle', betType: 'a' }, { type: 'toggle', betType: 'b' })
    expect(stakeText(slipReducer(two, { type: 'max', balance: '100.05', maxStake: '1000' }))).toBe('50.02')
    expect(stakeText(slipReducer(two, { type: 'max', balance: '99999', maxStake: '500' }))).toBe('500.00')
  })

  it('never guesses from a balance that is not known yet', () => {
    const one = run({ type: 'toggle', betType: 'a' }, { type: 'set', amount: '5' })
    expect(slipReducer(one, { type: 'max', balance: null, maxStake: '1000' })).toBe(one)
    expect(checkSlip(one, { minStake: '1', maxStake: '100', balance: null })).toEqual({
      ok: false,
      message: '余额加载中，请稍候',
    })
  })

  it('computes the payout exactly from decimal strings', () => {
    expect(potentialPayout('100', '1.95')).toBe('195.00')
    expect(potentialPayout('0.1', '1.982')).toBe('0.19')
    expect(potentialPayout('33.33', '7.65')).toBe('254.97')
    expect(potentialPayout('10', '189')).toBe('1890.00')
  })

  it('refuses an empty, too small, too large or unaffordable slip', () => {
    const limits = { minStake: '1', maxStake: '100', balance: '50' }
    expect(checkSlip(emptySlip, limits).message).toBe('请选择投注项')
    const one = run({ type: 'toggle', betType: 'big' })
    expect(checkSlip(one, limits).message).toBe('请输入投注金额')
    expect(checkSlip(slipReducer(one, { type: 'set', amount: '0.5' }), limits).ok).toBe(false)
    expect(checkSlip(slipReducer(one, { type: 'set', amount: '101' }), limits).ok).toBe(false)
    expect(checkSlip(slipReducer(one, { type: 'set', amount: '60' }), limits).message).toBe('余额不足')
    expect(checkSlip(slipReducer(one, { type: 'set', amount: '50' }), limits).ok).toBe(true)
  })
})

describe('pairs', () => {
  it('refuses the other side of a pair once one side is picked, per ball and position', () => {
    const s = run(
      { type: 'toggle', betType: 'big' },
      { type: 'toggle', betType: 'small' },
      { type: 'toggle', betType: 'b1_odd' },
      { type: 'toggle', betType: 'b1_even' },
      { type: 'toggle', betType: 'b2_even' },
      { type: 'toggle', betType: 'p3_dragon' },
      { type: 'toggle', betType: 'p3_tiger' },
    )
    expect(s.selected).toEqual(['big', 'b1_odd', 'b2_even', 'p3_dragon'])
    expect(blockedBy('small', s.selected)).toBe('big')
    expect(blockedBy('player', ['banker'])).toBe('banker')
    expect(blockedBy('tie', ['banker'])).toBeNull()
    expect(blockedBy('sum_8', ['big'])).toBeNull()
    // Unpicking frees the other side.
    const freed = run(
      { type: 'toggle', betType: 'big' },
      { type: 'toggle', betType: 'big' },
      { type: 'toggle', betType: 'small' },
    )
    expect(freed.selected).toEqual(['small'])
  })
})
