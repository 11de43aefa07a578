import type { ManifestOptions } from 'vite-plugin-pwa'

/**
 * The web app manifest and theme colours that make the app installable (docs/pwa.md). vite.config.ts
 * writes the manifest into the build (`MANIFEST_FILE`), and lib/pwa.ts links it once the first
 * screen is up; the icons are in client/public/icons (scripts/generate-icons.ts renders them from
 * icon.svg).
 */

/** The manifest's file name at the root of the build. */
export const MANIFEST_FILE = 'manifest.webmanifest'

/** The browser's toolbar colour: the brand blue by day, the dark surface at night. */
export const THEME_COLORS = { light: '#2f6bff', dark: '#181c24' } as const

interface ManifestIcon {
  src: string
  sizes: string
  type: string
  purpose: 'any' | 'maskable'
}

const ICONS: ManifestIcon[] = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
]

export const WEB_APP_MANIFEST = {
  id: '/home',
  name: '哈希游戏',
  short_name: '哈希游戏',
  description: '哈希游戏：USDT 钱包、区块哈希与彩票类游戏、活动与邀请返佣。',
  lang: 'zh-CN',
  dir: 'ltr',
  start_url: '/home',
  scope: '/',
  display: 'standalone',
  orientation: 'portrait',
  theme_color: THEME_COLORS.light,
  // The light page background, so the launch screen matches the boot splash.
  background_color: '#f4f6fa',
  categories: ['games', 'finance'],
  icons: ICONS,
} satisfies Partial<ManifestOptions>
