/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register'
import { mountPwaBanner } from './pwa-banner'
import { MANIFEST_FILE } from './pwa-manifest'
import { pwaStatus } from './pwa-status'

/**
 * Links the web app manifest, registers the service worker that vite-plugin-pwa builds
 * (dist/sw.js) and shows the offline and update banner. Loaded by main.tsx once the first screen is
 * up, so none of it delays that screen: a manifest linked from index.html is fetched by Chromium
 * while the page loads, with the icon it picks, beside the first screen's script (docs/pwa.md).
 * In development there is no manifest and `virtual:pwa-register` registers nothing.
 */
export function startPwa(): void {
  if (import.meta.env.PROD) linkManifest(document)
  pwaStatus.start(window, registerSW)
  mountPwaBanner(pwaStatus)
}

function linkManifest(doc: Document): void {
  const link = doc.createElement('link')
  link.rel = 'manifest'
  link.href = `/${MANIFEST_FILE}`
  doc.head.append(link)
}
