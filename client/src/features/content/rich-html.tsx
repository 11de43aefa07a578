import { RICH_TEXT_TAGS } from '@shared/rich-text'
import DOMPurify, { type Config } from 'dompurify'
import { useMemo } from 'react'

/**
 * What rich text may hold: text structure, tables, links and images. No forms or controls (a fake
 * password box), no scripts, frames, media or SVG, no event handlers, and no `style`, `class` or
 * `id` (a `position: fixed` overlay, or the app's own classes, could cover the page). Links keep
 * http(s), mailto and tel; images https and inline pictures.
 */
const CONFIG: Config = {
  ALLOWED_TAGS: [...RICH_TEXT_TAGS],
  ALLOWED_ATTR: ['href', 'target', 'title', 'src', 'alt', 'width', 'height', 'colspan', 'rowspan', 'start'],
  ALLOWED_URI_REGEXP:
    /^(?:https?:|mailto:|tel:|data:image\/(?:png|jpeg|gif|webp);base64,|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
}

let hooked = false

/** An http(s) link to another origin than the app's. */
function isOutsideLink(href: string | null): boolean {
  if (!href) return false
  try {
    const url = new URL(href, globalThis.location?.href)
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== globalThis.location?.origin
    )
  } catch {
    return false
  }
}

/** Sanitises rich HTML for insertion into the page, whichever server sent it. */
export function sanitizeRichHtml(html: string): string {
  if (!hooked) {
    // A link to another site opens outside the app, in a new tab; a link that opens a new tab must
    // not hand the content's page a handle on this one.
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName !== 'A') return
      if (isOutsideLink(node.getAttribute('href'))) node.setAttribute('target', '_blank')
      if (node.getAttribute('target') === '_blank') node.setAttribute('rel', 'noopener noreferrer')
      else node.removeAttribute('target')
    })
    hooked = true
  }
  return DOMPurify.sanitize(html, CONFIG)
}

/**
 * Rich text from the content endpoints. In emulator mode the server already cleans it; in proxy
 * mode it comes from the upstream as is, so the client sanitises it in both, before inserting it.
 */
export function RichHtml({ html, className = '' }: { html: string; className?: string }) {
  const clean = useMemo(() => sanitizeRichHtml(html), [html])
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify just above
  return <div className={`content__rich ${className}`} dangerouslySetInnerHTML={{ __html: clean }} />
}
