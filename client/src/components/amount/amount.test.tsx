// @vitest-environment happy-dom
import { session } from '@client/lib/session-store'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Amount } from './amount'

afterEach(() => {
  cleanup()
  act(() => session.setHideAmount(false))
})

const shown = (testId: string) => screen.getByTestId(testId)

describe('Amount', () => {
  it('shows a signed amount through signedAmount: the sign and its colour, none for zero', () => {
    render(
      <>
        <Amount testId="in" value="5.5" signed />
        <Amount testId="out" value="-3" signed />
        <Amount testId="zero" value="0.00" signed />
      </>,
    )
    expect(shown('in').textContent).toBe('+5.50USDT')
    expect(shown('in').className).toContain('amount--in')
    expect(shown('out').textContent).toBe('-3.00USDT')
    expect(shown('out').className).toContain('amount--out')
    expect(shown('zero').textContent).toBe('0.00USDT')
    expect(shown('zero').className).not.toMatch(/amount--(in|out)/)
  })

  it('hides every figure, signed or not, while the hide-amount setting is on, unless asked to reveal', () => {
    act(() => session.setHideAmount(true))
    render(
      <>
        <Amount testId="plain" value="12.34" />
        <Amount testId="signed" value="-3" signed unit="" />
        <Amount testId="confirm" value="2.5" reveal />
      </>,
    )
    expect(shown('plain').textContent).toBe('****USDT')
    expect(shown('signed').textContent).toBe('****')
    expect(shown('confirm').textContent).toBe('2.50USDT')
    act(() => session.setHideAmount(false))
    expect(shown('plain').textContent).toBe('12.34USDT')
    expect(shown('signed').textContent).toBe('-3.00')
  })
})
