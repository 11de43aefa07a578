import { chromium } from '@playwright/test'
const [base, path, out, w] = process.argv.slice(2)
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
const p = await b.newPage({ viewport: { width: Number(w || 320), height: 1400 }, deviceScaleFactor: 1 })
await p.goto(base + path)
await p.waitForTimeout(2500)
await p.screenshot({ path: out, fullPage: false })
await b.close()
