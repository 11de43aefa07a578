import { chromium, type Page } from '@playwright/test'
import { STORAGE_KEY } from '../../shared/storage-keys'

/**
 * The block game's page held open through hours of rounds (bench-client.ts --soak): the world clock
 * is frozen and moved on a block at a time through `/__emu/clock/advance`, so each step brings a draw
 * and the round's events over the push channel, as a player keeping the page open would see them,
 * hundreds of times faster. Chromium's CPU is slowed (CDP Emulation.setCPUThrottlingRate) as for a
 * mid-tier phone. Measured: the JS heap and DOM node count after a full collection (CDP
 * Performance.getMetrics), sampled along the way; and the latency of picking a bet (a tap on a bet
 * option, now and then), from the page's own Event Timing entries (PerformanceObserver 'event',
 * durationThreshold 16, grouped by interactionId as INP is).
 */

export interface SoakOptions {
  readonly base: string
  readonly chromePath: string
  /** Emulated time the page stays open. */
  readonly hours: number
  /** Emulated ms per step (one block: 3,000). */
  readonly stepMs: number
  /** Wall ms between steps. */
  readonly intervalMs: number
  readonly cpuSlowdown: number
  /** Emulated minutes between samples. */
  readonly sampleMinutes: number
}

export const SOAK_TARGETS = { heapGrowthMb: 5, interactionMs: 100 } as const

const DEMO = { phone: '13800138000', password: 'demo1234' }
/** Bet taps: one every this many steps. */
const TAP_EVERY_STEPS = 7
/** Steps before the first sample: the results strip and streak board fill up (50 draws) first. */
const WARM_UP_STEPS = 60

export interface SoakSample {
  readonly minutes: number
  readonly heapMb: number
  readonly nodes: number
  readonly listeners: number
  readonly draws: number
}

export interface SoakResult {
  readonly samples: SoakSample[]
  readonly taps: number
  readonly tapFailures: number
  /** Longest event duration of each reported interaction (only those of 16 ms or more are reported). */
  readonly interactions: number[]
  readonly drawsShown: number
  readonly wallSeconds: number
  readonly options: SoakOptions
}

async function postJson(base: string, path: string, body: unknown, method = 'POST'): Promise<unknown> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as { code: number; msg: string; data: unknown }
  if (json.code !== 1) throw new Error(`${method} ${path}: ${json.code} ${json.msg}`)
  return json.data
}

async function login(
  base: string,
): Promise<{ token: string; player_id: number; expires_at: number; user_info: unknown }> {
  const form = new FormData()
  form.set('phone', DEMO.phone)
  form.set('password', DEMO.password)
  const r = (await (await fetch(`${base}/api/login`, { method: 'POST', body: form })).json()) as {
    code: number
    msg: string
    data: { token: string; player_id: number; expires_at: number; user_info: unknown }
  }
  if (r.code !== 1) throw new Error(`login: ${r.code} ${r.msg}`)
  return r.data
}

/** Collected by the page: Event Timing entries of 16 ms or more, and the draws the page was told of. */
declare global {
  interface Window {
    __soakEvents?: { name: string; duration: number; interactionId: number }[]
  }
}

function observeEvents(): void {
  window.__soakEvents = []
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as PerformanceEventTiming[])
      window.__soakEvents?.push({ name: e.name, duration: e.duration, interactionId: e.interactionId })
  })
  observer.observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit)
}

async function sample(
  page: Page,
  cdp: Awaited<ReturnType<typeof cdpOf>>,
  minutes: number,
): Promise<SoakSample> {
  await cdp.send('HeapProfiler.collectGarbage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN
  const draws = await page.locator('[data-testid="strip-draw"]').count()
  return {
    minutes,
    heapMb: metric('JSHeapUsedSize') / 2 ** 20,
    nodes: metric('Nodes'),
    listeners: metric('JSEventListeners'),
    draws,
  }
}

const cdpOf = (page: Page) => page.context().newCDPSession(page)

export async function runGameSoak(opts: SoakOptions, log: (line: string) => void): Promise<SoakResult> {
  const session = await login(opts.base)
  // The games' chain is made on first use; then the world clock stands still between steps, each
  // step exactly one block.
  await fetch(`${opts.base}/__emu/games`)
  await postJson(opts.base, '/__emu/clock', { mode: 'frozen' }, 'PUT')
  const browser = await chromium.launch({
    executablePath: opts.chromePath,
    args: ['--no-sandbox', '--disable-gpu'],
  })
  const started = performance.now()
  try {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
      serviceWorkers: 'block',
    })
    await context.addInitScript(
      ({ data, keys }) => {
        localStorage.setItem(keys.token, data.token)
        localStorage.setItem(
          keys.loginData,
          JSON.stringify({ player_id: data.player_id, expires_at: data.expires_at }),
        )
        localStorage.setItem(keys.userInfo, JSON.stringify(data.user_info))
        localStorage.setItem(keys.isLogin, '1')
      },
      { data: session, keys: STORAGE_KEY },
    )
    await context.addInitScript(observeEvents)
    const page = await context.newPage()
    const cdp = await cdpOf(page)
    await cdp.send('Performance.enable')
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: opts.cpuSlowdown })
    await page.goto(`${opts.base}/games/qukuai`)
    await page.locator('[data-bet-type]').first().waitFor({ timeout: 60_000 })

    const steps = Math.round((opts.hours * 3_600_000) / opts.stepMs)
    const sampleEvery = Math.max(1, Math.round((opts.sampleMinutes * 60_000) / opts.stepMs))
    const samples: SoakSample[] = []
    const options = await page
      .locator('[data-bet-type]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-bet-type') ?? ''))
    let taps = 0
    let tapFailures = 0
    const newestDraw = () =>
      page
        .locator('[data-testid="strip-draw"]')
        .evaluateAll((els) => els[0]?.getAttribute('data-round-id') ?? null)
    let lastDraw = await newestDraw()
    let drawsShown = 0
    log(
      `soak: ${steps} steps of ${opts.stepMs / 1000} s (${opts.hours} h of rounds), one every ${opts.intervalMs} ms, CPU slowdown ${opts.cpuSlowdown}×`,
    )
    for (let step = 1; step <= steps; step++) {
      const due = performance.now() + opts.intervalMs
      await postJson(opts.base, '/__emu/clock/advance', { ms: opts.stepMs })
      if (step % TAP_EVERY_STEPS === 0 && options.length > 0) {
        const type = options[Math.floor(Math.random() * options.length)]
        taps++
        try {
          // A mask over a sealed round takes the tap instead, as it would a finger's.
          await page.locator(`[data-bet-type="${type}"]`).first().click({ timeout: 2_000, force: true })
        } catch {
          tapFailures++
        }
      }
      if (
        step === WARM_UP_STEPS ||
        (step > WARM_UP_STEPS && (step - WARM_UP_STEPS) % sampleEvery === 0) ||
        step === steps
      ) {
        const s = await sample(page, cdp, (step * opts.stepMs) / 60_000)
        samples.push(s)
        log(
          `  ${s.minutes.toFixed(0).padStart(4)} min: heap ${s.heapMb.toFixed(2)} MB, ${s.nodes} DOM nodes, ${s.listeners} listeners, ${s.draws} draws in the strip`,
        )
      }
      const newest = await newestDraw()
      if (newest !== lastDraw) drawsShown++
      lastDraw = newest
      const wait = due - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    }
    const events = await page.evaluate(() => window.__soakEvents ?? [])
    const byInteraction = new Map<number, number>()
    for (const e of events) {
      if (!e.interactionId) continue
      byInteraction.set(e.interactionId, Math.max(byInteraction.get(e.interactionId) ?? 0, e.duration))
    }
    return {
      samples,
      taps,
      tapFailures,
      interactions: [...byInteraction.values()],
      drawsShown,
      wallSeconds: (performance.now() - started) / 1000,
      options: opts,
    }
  } finally {
    await browser.close()
  }
}

/** Least-squares slope of y over x (per unit of x); 0 for fewer than two points. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length
  if (n < 2) return 0
  const mx = points.reduce((s, p) => s + p.x, 0) / n
  const my = points.reduce((s, p) => s + p.y, 0) / n
  let num = 0
  let den = 0
  for (const p of points) {
    num += (p.x - mx) * (p.y - my)
    den += (p.x - mx) ** 2
  }
  return den === 0 ? 0 : num / den
}

/**
 * The interaction latency at quantile q over every tap: taps Chromium did not report took under
 * 16 ms (its threshold) and count as such.
 */
export function tapQuantile(
  reported: readonly number[],
  taps: number,
  q: number,
): { ms: number; under16: boolean } {
  const unreported = Math.max(0, taps - reported.length)
  const all = [...Array<number>(unreported).fill(0), ...reported].sort((a, b) => a - b)
  if (all.length === 0) return { ms: Number.NaN, under16: false }
  const v = all[Math.min(all.length - 1, Math.max(0, Math.ceil(q * all.length) - 1))] ?? 0
  return v === 0 ? { ms: 16, under16: true } : { ms: v, under16: false }
}

export function formatSoak(r: SoakResult): string {
  const first = r.samples[0]
  const last = r.samples.at(-1)
  if (!first || !last) return 'soak: no samples'
  const heapGrowth = last.heapMb - first.heapMb
  const secondHalf = r.samples.slice(Math.floor(r.samples.length / 2))
  const nodesPerHour = slope(secondHalf.map((s) => ({ x: s.minutes / 60, y: s.nodes })))
  const heapPerHour = slope(secondHalf.map((s) => ({ x: s.minutes / 60, y: s.heapMb })))
  const p75 = tapQuantile(r.interactions, r.taps, 0.75)
  const max = r.interactions.length > 0 ? Math.max(...r.interactions) : Number.NaN
  const mark = (ok: boolean) => (ok ? 'pass' : 'FAIL')
  const o = r.options
  return [
    `Game page soak: /games/qukuai open for ${o.hours} h of rounds (${o.stepMs / 1000} s steps of the world clock every ${o.intervalMs} ms; ${r.wallSeconds.toFixed(0)} s of wall time), CPU slowdown ${o.cpuSlowdown}×, ${r.drawsShown} new draws seen in the strip`,
    `  JS heap (after a full collection)  ${first.heapMb.toFixed(2)} MB at ${first.minutes.toFixed(0)} min → ${last.heapMb.toFixed(2)} MB at ${last.minutes.toFixed(0)} min: ${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(2)} MB   target < ${SOAK_TARGETS.heapGrowthMb} MB  ${mark(heapGrowth < SOAK_TARGETS.heapGrowthMb)}`,
    `  DOM nodes                          ${first.nodes} → ${last.nodes}; trend over the second half ${nodesPerHour >= 0 ? '+' : ''}${nodesPerHour.toFixed(0)} nodes/h, heap ${heapPerHour >= 0 ? '+' : ''}${heapPerHour.toFixed(2)} MB/h`,
    `  picking a bet (${r.taps} taps${r.tapFailures > 0 ? `, ${r.tapFailures} not delivered` : ''}; ${r.interactions.length} reported ≥ 16 ms)  p75 ${p75.under16 ? '< 16' : p75.ms.toFixed(0)} ms, max ${Number.isNaN(max) ? '< 16' : max.toFixed(0)} ms   target ≤ ${SOAK_TARGETS.interactionMs} ms  ${mark(p75.ms <= SOAK_TARGETS.interactionMs)} (p75)`,
    `  samples (emulated minutes: heap MB / DOM nodes): ${r.samples.map((s) => `${s.minutes.toFixed(0)}: ${s.heapMb.toFixed(2)}/${s.nodes}`).join(', ')}`,
  ].join('\n')
}
