// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { isAppPath, rememberForLogin, returnFrom, takeAfterLogin, withReturn } from './return-to'

beforeEach(() => sessionStorage.clear())

describe('return-to', () => {
  it('adds and reads the page to come back to, only inside the app', () => {
    expect(withReturn('/paypdchange', '/cash')).toBe('/paypdchange?from=%2Fcash')
    expect(withReturn('/address?x=1', '/cash')).toBe('/address?x=1&from=%2Fcash')
    expect(returnFrom(new URLSearchParams('from=%2Fcash'))).toBe('/cash')
    expect(returnFrom(new URLSearchParams('from=%2F%2Fevil.example'))).toBeNull()
    expect(returnFrom(new URLSearchParams('from=https%3A%2F%2Fevil.example'))).toBeNull()
    expect(returnFrom(new URLSearchParams(''))).toBeNull()
    expect(isAppPath('/\\evil.example')).toBe(false)
  })

  it('remembers one page for after the login, once, and never the login page', () => {
    rememberForLogin('/exchange?pair=USDT-TRX')
    expect(takeAfterLogin()).toBe('/exchange?pair=USDT-TRX')
    expect(takeAfterLogin()).toBeNull()
    rememberForLogin('/login?isreg=0')
    expect(takeAfterLogin()).toBeNull()
    rememberForLogin('https://evil.example/')
    expect(takeAfterLogin()).toBeNull()
  })
})
