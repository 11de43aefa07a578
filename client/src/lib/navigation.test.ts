import { beforeEach, describe, expect, it, vi } from 'vitest'

/** A fresh copy of the module: it keeps its state at module level. */
async function fresh() {
  vi.resetModules()
  return import('./navigation')
}

beforeEach(() => {
  vi.unstubAllGlobals()
})

describe('navigateTo', () => {
  it('goes through the router once it has registered', async () => {
    const { navigateTo, setNavigator } = await fresh()
    const seen: string[] = []
    setNavigator((to, options) => seen.push(`${to} ${options?.replace === true}`))
    navigateTo('/login?isreg=0', { replace: true })
    expect(seen).toEqual(['/login?isreg=0 true'])
  })

  it('keeps a navigation asked for before the router registers, when the app said one is coming', async () => {
    const { expectRouter, navigateTo, setNavigator } = await fresh()
    const assign = vi.fn()
    vi.stubGlobal('location', { assign, replace: assign })
    expectRouter()
    navigateTo('/mine')
    navigateTo('/login?isreg=0', { replace: true })
    expect(assign).not.toHaveBeenCalled()
    const seen: string[] = []
    setNavigator((to, options) => seen.push(`${to} ${options?.replace === true}`))
    // Once the commit that registered the router is over.
    expect(seen).toEqual([])
    await Promise.resolve()
    expect(seen).toEqual(['/login?isreg=0 true'])
    setNavigator(null)
    setNavigator((to) => seen.push(to))
    await Promise.resolve()
    expect(seen).toHaveLength(1)
  })

  it('has the browser navigate when no router is coming', async () => {
    const { navigateTo } = await fresh()
    const assign = vi.fn()
    const replace = vi.fn()
    vi.stubGlobal('location', { assign, replace })
    navigateTo('/mine')
    navigateTo('/login', { replace: true })
    expect(assign).toHaveBeenCalledWith('/mine')
    expect(replace).toHaveBeenCalledWith('/login')
  })
})
