import { defineConfig } from '@playwright/test'

/** Specs that move the emulator's world clock; they get a server of their own (global-setup.ts). */
const WORLD_CLOCK_SPECS = ['**/games.spec.ts']

/**
 * Browser tests in headless Chromium (Debian's, not a downloaded one) against the built server in
 * emulator mode, which e2e/support/global-setup.ts starts on a free port with a fresh database.
 * Build first: `npm run build`.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS) || 2,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
    // The service worker would answer navigations from its cache and fetch the whole precache in the
    // background of every test; only e2e/pwa.spec.ts, which tests it, allows it.
    serviceWorkers: 'block',
    // No trace by default: recording one for every test (and dropping it on a pass) made the
    // browser run about 12 % slower, and a CI run keeps nothing but its log. To investigate a
    // failure locally: `npx playwright test --trace retain-on-failure e2e/<spec>.ts`.
    trace: 'off',
  },
  projects: [
    { name: 'shared', testIgnore: WORLD_CLOCK_SPECS },
    { name: 'world-clock', testMatch: WORLD_CLOCK_SPECS },
  ],
})
