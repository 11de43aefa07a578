/// <reference types="vite-plugin-pwa/vanillajs" />
import { registerSW } from 'virtual:pwa-register'
import { mountPwaBanner } from './pwa-banner'
import { pwaStatus } from './pwa-status'

/**
 * Registers the service worker that vite-plugin-pwa builds (dist/sw.js) and shows the offline and
 * update banner. Loaded by main.tsx once the first screen is up, so none of it delays that screen.
 * In development `virtual:pwa-register` registers nothing.
 */
export function startPwa(): void {
  pwaStatus.start(window, registerSW)
  mountPwaBanner(pwaStatus)
}
