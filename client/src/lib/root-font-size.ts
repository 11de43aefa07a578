import { DESIGN_WIDTH_PX, ROOT_FONT_PX } from '@shared/constants'

/** docs/product.md#pages: the root font size is the viewport width / 375 × 33, so 1rem is 33 design pixels. */
export function rootFontSize(viewportWidth: number): number {
  return (viewportWidth / DESIGN_WIDTH_PX) * ROOT_FONT_PX
}

/** Sets the root font size now and on every resize; returns the function that stops it. */
export function installRootFontSize(win: Window = window): () => void {
  const apply = () => {
    win.document.documentElement.style.fontSize = `${rootFontSize(win.innerWidth)}px`
  }
  apply()
  win.addEventListener('resize', apply)
  win.addEventListener('orientationchange', apply)
  return () => {
    win.removeEventListener('resize', apply)
    win.removeEventListener('orientationchange', apply)
  }
}
