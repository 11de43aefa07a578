/**
 * Renders the app icon (client/public/icons/icon.svg, the same mark as the favicon and the boot
 * splash) to the PNGs the web app manifest and iOS ask for, with Debian's Chromium:
 *
 *   icon-192.png, icon-512.png          purpose "any": the rounded icon on a transparent corner
 *   maskable-192.png, maskable-512.png  purpose "maskable": full-bleed square, the mark inside the
 *                                       safe zone (the centre circle of 80 % diameter) so that any
 *                                       mask shape the launcher applies keeps all of it
 *   apple-touch-icon.png (180)          full-bleed square (iOS rounds the corners itself)
 *
 *   tsx scripts/generate-icons.ts       (CHROMIUM_PATH overrides /usr/bin/chromium)
 *
 * The PNGs are committed; run this again after changing icon.svg.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'

const ICON_DIR = resolve(fileURLToPath(import.meta.url), '../../client/public/icons')

/** The icon's shapes without its rounded background: the hash mark, in the 32-unit grid. */
function markOf(svg: string): string {
  const mark = svg.match(/<path\b[^>]*\/>/)?.[0]
  if (!mark) throw new Error('icon.svg has no <path> for the mark')
  return mark
}

function backgroundOf(svg: string): string {
  const fill = svg.match(/<rect\b[^>]*\bfill="([^"]+)"/)?.[1]
  if (!fill) throw new Error('icon.svg has no filled <rect> for the background')
  return fill
}

/** A full-bleed square with the mark at its original size: its corners lie within 36 % of the centre. */
export function maskableSvg(svg: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" fill="${backgroundOf(svg)}"/>${markOf(svg)}</svg>`
  )
}

export const OUTPUTS = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'maskable-192.png', size: 192, maskable: true },
  { file: 'maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
] as const

async function main(): Promise<void> {
  const svg = readFileSync(join(ICON_DIR, 'icon.svg'), 'utf8')
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  })
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 })
    for (const { file, size, maskable } of OUTPUTS) {
      const source = maskable ? maskableSvg(svg) : svg
      await page.setViewportSize({ width: size, height: size })
      await page.setContent(
        `<html><body style="margin:0;background:transparent">` +
          `<img src="data:image/svg+xml;base64,${Buffer.from(source).toString('base64')}" ` +
          `width="${size}" height="${size}" style="display:block"></body></html>`,
      )
      await page.locator('img').evaluate((img: HTMLImageElement) => img.decode())
      const png = await page.screenshot({
        omitBackground: true,
        clip: { x: 0, y: 0, width: size, height: size },
      })
      writeFileSync(join(ICON_DIR, file), png)
      process.stdout.write(`wrote ${file} (${size}×${size}, ${png.length} bytes)\n`)
    }
  } finally {
    await browser.close()
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`generate-icons: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exitCode = 1
  })
}
