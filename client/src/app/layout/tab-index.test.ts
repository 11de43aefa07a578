import { describe, expect, it } from 'vitest'
import { TOP_UP_TAB, tabIndexForPath } from './tab-index'

describe('tabIndexForPath', () => {
  it('maps each tab path to its index from 0', () => {
    expect(tabIndexForPath('/home')).toBe(0)
    expect(tabIndexForPath('/activity')).toBe(1)
    expect(tabIndexForPath('/hometopup')).toBe(2)
    expect(tabIndexForPath('/service')).toBe(3)
    expect(tabIndexForPath('/mine')).toBe(4)
    expect(TOP_UP_TAB).toBe(2)
  })

  it('ignores a trailing slash and defaults to the home tab', () => {
    expect(tabIndexForPath('/mine/')).toBe(4)
    expect(tabIndexForPath('/')).toBe(0)
    expect(tabIndexForPath('/homeless')).toBe(0)
  })
})
