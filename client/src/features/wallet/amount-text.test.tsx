// @vitest-environment happy-dom

import { session } from '@client/lib/session-store'
import { act, cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { AmountText } from './amount-text'

afterEach(() => {
  cleanup()
  session.setHideAmount(false)
})

describe('AmountText', () => {
  it('shows the string as the server wrote it, with a sign and a tone for ledger rows', () => {
    const { container } = render(
      <>
        <AmountText value="12.50" />
        <AmountText value="3.00" unit="TRX" signed />
        <AmountText value="-1.00" signed />
      </>,
    )
    const amounts = [...container.querySelectorAll('.wallet-amount')]
    expect(amounts.map((el) => el.textContent)).toEqual(['12.50USDT', '+3.00TRX', '-1.00USDT'])
    expect(amounts[1]?.className).toContain('wallet-amount--in')
    expect(amounts[2]?.className).toContain('wallet-amount--out')
  })

  it('hides every amount while hide-amount is on, and shows it again when it is off', () => {
    const { container } = render(<AmountText value="-51.10" signed />)
    act(() => session.setHideAmount(true))
    expect(container.textContent).toBe('****USDT')
    act(() => session.setHideAmount(false))
    expect(container.textContent).toBe('-51.10USDT')
  })
})
