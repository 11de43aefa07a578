import { test as base, expect } from '@playwright/test'
import { EmuClient } from '../../scripts/emu/emu-client'

/**
 * Playwright's `test` with an `emu` fixture: the typed control client in a scope of the test's
 * own. The page's calls carry the scope's header, so the test's rules, clock and journal are its
 * own; after the test, passed or failed, the scope is reset (its rules, session faults, clock,
 * scenario and journal go). The server is the project's `baseURL`.
 */
export const test = base.extend<{ emu: EmuClient }>({
  emu: async ({ page, baseURL }, use, testInfo) => {
    const root = new EmuClient({
      url: baseURL ?? 'http://localhost:3000',
      adminToken: process.env.EMU_ADMIN_TOKEN,
    })
    const emu = root.withScope(`${testInfo.testId}-${testInfo.retry}`)
    await page.setExtraHTTPHeaders(emu.scopeHeaders()) // the page's calls are in the scope
    try {
      await use(emu)
    } finally {
      await emu.reset() // this scope only, whether the test passed or failed
    }
  },
})

export { expect }
