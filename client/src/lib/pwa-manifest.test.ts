import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { THEME_COLORS, WEB_APP_MANIFEST } from './pwa-manifest'

const CLIENT = resolve(fileURLToPath(import.meta.url), '../../..')
const PUBLIC = join(CLIENT, 'public')

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const data = readFileSync(file)
  expect(data.subarray(1, 4).toString('latin1')).toBe('PNG')
  expect(data.subarray(12, 16).toString('latin1')).toBe('IHDR')
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
}

describe('the web app manifest', () => {
  it('has what Chromium needs to install the app', () => {
    expect(WEB_APP_MANIFEST.name).toBe('哈希游戏')
    expect(WEB_APP_MANIFEST.short_name.length).toBeGreaterThan(0)
    expect(WEB_APP_MANIFEST.display).toBe('standalone')
    expect(WEB_APP_MANIFEST.start_url.startsWith(WEB_APP_MANIFEST.scope)).toBe(true)
    const pngs = WEB_APP_MANIFEST.icons.filter((icon) => icon.type === 'image/png')
    for (const size of ['192x192', '512x512']) {
      expect(pngs.some((icon) => icon.sizes === size && icon.purpose === 'any')).toBe(true)
      expect(pngs.some((icon) => icon.sizes === size && icon.purpose === 'maskable')).toBe(true)
    }
  })

  it('lists icons that exist in client/public at the sizes it declares', () => {
    for (const icon of WEB_APP_MANIFEST.icons) {
      const file = join(PUBLIC, icon.src)
      expect(existsSync(file), icon.src).toBe(true)
      if (icon.type !== 'image/png') continue
      const [width, height] = icon.sizes.split('x').map(Number)
      expect(pngSize(file), icon.src).toEqual({ width, height })
    }
    expect(pngSize(join(PUBLIC, 'icons/apple-touch-icon.png'))).toEqual({ width: 180, height: 180 })
  })

  it('gives index.html a toolbar colour for light and for dark mode, the manifest the light one', () => {
    const html = readFileSync(join(CLIENT, 'index.html'), 'utf8')
    const metas = [...html.matchAll(/<meta\s+name="theme-color"\s+content="([^"]+)"\s+media="([^"]+)"/g)]
    expect(metas.map((m) => [m[2], m[1]])).toEqual([
      ['(prefers-color-scheme: light)', THEME_COLORS.light],
      ['(prefers-color-scheme: dark)', THEME_COLORS.dark],
    ])
    expect(WEB_APP_MANIFEST.theme_color).toBe(THEME_COLORS.light)
  })
})
