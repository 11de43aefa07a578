import type { Theme } from '@shared/constants'

/**
 * Puts the theme on <html>: `data-theme="dark"` drives our custom properties, and
 * `data-prefers-color-scheme` switches antd-mobile's own dark variables with it.
 */
export function applyTheme(
  theme: Theme,
  root: HTMLElement | undefined = globalThis.document?.documentElement,
) {
  if (!root) return
  root.setAttribute('data-theme', theme)
  root.setAttribute('data-prefers-color-scheme', theme)
  root.style.colorScheme = theme
}
