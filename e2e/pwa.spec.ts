import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './support/test'

/**
 * The installable app (docs/pwa.md): the manifest, the service worker's control of the page, an
 * offline reload, /api never answered from its cache, and the update offer for a new build. The
 * other browser tests block service workers (playwright.config.ts); these allow them.
 */
test.use({ serviceWorkers: 'allow' })

const OFFLINE_TEXT = '网络已断开，当前显示的内容可能不是最新的'
const UPDATE_TEXT = '有新版本，点击刷新'

/** Opens /home and waits until the service worker is active and controls the page (after a reload). */
async function openControlled(page: Page, base = ''): Promise<void> {
  await page.goto(`${base}/home`)
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.reload()
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  // Registration after a controlled load runs too; let it settle before the test goes on.
  await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible()
}

test('the manifest is linked and valid, with icons that load', async ({ page, request }) => {
  const html = await (await request.get('/home')).text()
  // Linked once the first screen is up (lib/pwa.ts), so it is not fetched beside the entry script.
  expect(html).not.toContain('rel="manifest"')
  await page.goto('/home')
  const link = page.locator('link[rel="manifest"]')
  await expect(link).toHaveAttribute('href', '/manifest.webmanifest')
  const href = await link.getAttribute('href')
  const res = await request.get(href ?? '')
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toContain('application/manifest+json')
  const manifest = await res.json()
  expect(manifest).toMatchObject({
    name: '哈希游戏',
    short_name: '哈希游戏',
    display: 'standalone',
    start_url: '/home',
    scope: '/',
  })
  const icons: { src: string; sizes: string; type: string; purpose: string }[] = manifest.icons
  for (const size of ['192x192', '512x512'])
    for (const purpose of ['any', 'maskable'])
      expect(icons.some((i) => i.sizes === size && i.purpose === purpose && i.type === 'image/png')).toBe(
        true,
      )
  for (const icon of icons) {
    const image = await request.get(icon.src)
    expect(image.status(), icon.src).toBe(200)
    expect(image.headers()['content-type'], icon.src).toBe(icon.type)
  }
  const themeColors = await page
    .locator('meta[name="theme-color"]')
    .evaluateAll((metas) => metas.map((m) => m.getAttribute('media')))
  expect(themeColors).toEqual(['(prefers-color-scheme: light)', '(prefers-color-scheme: dark)'])
})

test('sw.js is served uncached, as JavaScript', async ({ request }) => {
  const res = await request.get('/sw.js')
  expect(res.status()).toBe(200)
  expect(res.headers()['content-type']).toContain('javascript')
  expect(res.headers()['cache-control']).toMatch(/no-cache|no-store|max-age=0/)
})

test('the service worker registers and controls the page after a reload, and Chromium can install the app', async ({
  page,
  context,
  pageErrors,
}) => {
  await openControlled(page)
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
  expect(new URL(scope).pathname).toBe('/')
  await expect(page.locator('link[rel="manifest"]')).toHaveCount(1)
  // What Lighthouse's installability audit asked Chromium.
  const cdp = await context.newCDPSession(page)
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors')
  // A Playwright context is an incognito one, where nothing installs; that says nothing of the page
  // (bench:client asks the same in a normal profile).
  expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([])
  const { url, errors } = await cdp.send('Page.getAppManifest')
  expect(new URL(url).pathname).toBe('/manifest.webmanifest')
  expect(errors).toEqual([])
  expect(pageErrors).toEqual([])
})

test('a reload without network opens the app from the cache and says it is offline', async ({
  page,
  context,
}) => {
  await openControlled(page)
  await context.setOffline(true)
  try {
    await page.goto('/mine')
    await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible()
    await expect(page.getByText(OFFLINE_TEXT)).toBeVisible()
    await page.reload()
    await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible()
    await expect(page.getByText(OFFLINE_TEXT)).toBeVisible()
    // /api is not answered from a cache: without the network the call fails.
    const apiOffline = await page.evaluate(() =>
      fetch('/api/api2/announcement').then(
        () => 'answered',
        () => 'failed',
      ),
    )
    expect(apiOffline).toBe('failed')
  } finally {
    await context.setOffline(false)
  }
  await expect(page.getByText(OFFLINE_TEXT)).toHaveCount(0)
})

test('/api and /__emu answers never come from the service worker or its caches', async ({ page }) => {
  const apiResponses: { url: string; fromServiceWorker: boolean }[] = []
  page.on('response', (res) => {
    const path = new URL(res.url()).pathname
    if (path.startsWith('/api/') || path.startsWith('/__emu'))
      apiResponses.push({ url: path, fromServiceWorker: res.fromServiceWorker() })
  })
  await openControlled(page)
  await page.evaluate(async () => {
    await fetch('/api/api2/announcement')
    await fetch('/__emu/state')
  })
  await expect.poll(() => apiResponses.length).toBeGreaterThanOrEqual(3)
  expect(apiResponses.filter((r) => r.fromServiceWorker)).toEqual([])

  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname)
    }
    return urls
  })
  expect(cached).toContain('/index.html')
  expect(cached.some((u) => u.startsWith('/assets/'))).toBe(true)
  expect(cached.filter((u) => u.startsWith('/api') || u.startsWith('/__emu'))).toEqual([])

  // A navigation to /api is not answered with the cached shell either.
  const res = await page.goto('/api/api2/announcement')
  expect(res?.fromServiceWorker()).toBe(false)
  expect(await res?.json()).toMatchObject({ code: expect.any(Number) })
})

test('a new build is offered with "有新版本，点击刷新" and taken on the tap', async ({ page }) => {
  // Its own server, a full precache and a second worker install: more than the default on a busy machine.
  test.setTimeout(90_000)
  // A server of its own, on a copy of the build that the test can "deploy" a new version into.
  const server = await startServer()
  try {
    await openControlled(page, server.base)
    const before = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)
    expect(before).toBe(`${server.base}/sw.js`)
    await expect(page.getByRole('button', { name: UPDATE_TEXT })).toHaveCount(0)

    // A new build changes sw.js (its precache list names the new files); any change in it counts.
    const sw = join(server.dist, 'sw.js')
    writeFileSync(sw, `${readFileSync(sw, 'utf8')}\n// the next build\n`)
    rmSync(`${sw}.br`, { force: true })
    rmSync(`${sw}.gz`, { force: true })
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.ready).update()
    })

    const update = page.getByRole('button', { name: UPDATE_TEXT })
    await expect(update).toBeVisible()
    // Nothing changes until the player taps: the old worker still controls the page.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).waiting !== null)).toBe(true)
    const reloaded = page.waitForEvent('load')
    await update.click()
    await reloaded
    await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible()
    await expect(page.getByRole('button', { name: UPDATE_TEXT })).toHaveCount(0)
    const after = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready
      return {
        waiting: registration.waiting !== null,
        controlled: navigator.serviceWorker.controller !== null,
      }
    })
    expect(after).toEqual({ waiting: false, controlled: true })
  } finally {
    await server.stop()
  }
})

/** The built server in emulator mode on a free port, serving a copy of client/dist. */
async function startServer(): Promise<{ base: string; dist: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'hashgame-pwa-'))
  const dist = join(dir, 'dist')
  cpSync(resolve(process.env.E2E_CLIENT_DIST ?? 'client/dist'), dist, { recursive: true })
  const port = await new Promise<number>((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0))
    })
  })
  const child = spawn(process.execPath, [process.env.E2E_SERVER_ENTRY ?? 'dist/server/main.js'], {
    env: {
      ...process.env,
      MODE: 'emulator',
      HOST: '127.0.0.1',
      PORT: String(port),
      DB_PATH: join(dir, 'emulator.db'),
      CLIENT_DIST: dist,
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  })
  const base = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  await expect
    .poll(
      () =>
        fetch(`${base}/__emu/state`).then(
          (r) => r.ok,
          () => false,
        ),
      { timeout: 30_000 },
    )
    .toBe(true)
    .catch(async (err: unknown) => {
      await stop()
      throw err
    })
  return { base, dist, stop }
}
