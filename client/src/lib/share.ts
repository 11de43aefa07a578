/** What is shared: the system share sheet's fields. */
export interface ShareContent {
  title: string
  text: string
  url: string
}

/** The part of `navigator` sharing uses, so that tests can stand in for it. */
export interface ShareNavigator {
  share?: (data: ShareContent) => Promise<void>
  canShare?: (data: ShareContent) => boolean
}

/**
 * Shares through the system's share sheet (`navigator.share`) where the browser has it: the player
 * picks the app, and this page stays where it is. A player who closes the sheet has decided
 * (nothing more happens); a browser without the sheet, or that refuses it, gets `fallback`.
 */
export async function share(
  content: ShareContent,
  fallback: () => void,
  nav: ShareNavigator | undefined = globalThis.navigator,
): Promise<void> {
  if (typeof nav?.share === 'function' && (typeof nav.canShare !== 'function' || nav.canShare(content))) {
    try {
      await nav.share(content)
      return
    } catch (err) {
      if (err instanceof Error && err.name === 'AbortError') return
      console.warn('share sheet refused', err)
    }
  }
  fallback()
}
