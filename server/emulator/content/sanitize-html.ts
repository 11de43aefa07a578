import { RICH_TEXT_TAGS } from '@shared/rich-text'
import { ElementType, parseDocument } from 'htmlparser2'

/**
 * An allow-list HTML sanitiser for rich content. The input is parsed into a tree and a new
 * document is written from it: only listed elements and attributes are kept, every text and
 * attribute value is escaped again, and URLs must use a listed scheme. What the browser then
 * parses is therefore unambiguous, whatever quirks the input had.
 */

type ChildNode = ReturnType<typeof parseDocument>['children'][number]

/** Kept as they are (with allowed attributes). */
const ALLOWED_TAGS = new Set<string>(RICH_TEXT_TAGS)

/** Removed with everything inside them: their content is code, or changes how the rest parses. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'button',
  'form',
  'input',
  'title',
  'head',
  'meta',
  'link',
  'base',
  'xmp',
  'plaintext',
  'audio',
  'video',
  'canvas',
  'portal',
  'dialog',
])

const VOID_TAGS = new Set(['br', 'hr', 'img'])

const GLOBAL_ATTRS = new Set(['title', 'class'])
const TAG_ATTRS: Record<string, ReadonlySet<string>> = {
  a: new Set(['href', 'target']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan']),
  th: new Set(['colspan', 'rowspan']),
  ol: new Set(['start']),
}

const LINK_SCHEMES = new Set(['http', 'https', 'mailto', 'tel'])
const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[a-z0-9+/]+=*$/i
const MAX_DEPTH = 64

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;')

/** The scheme a browser would see: it ignores ASCII whitespace and control characters inside URLs. */
function schemeOf(url: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping them is the point
  const squeezed = url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)
  return m?.[1]?.toLowerCase() ?? null
}

export function isSafeLink(url: string): boolean {
  const scheme = schemeOf(url)
  return scheme === null || LINK_SCHEMES.has(scheme)
}

export function isSafeImageSrc(url: string): boolean {
  const scheme = schemeOf(url)
  if (scheme === null || scheme === 'https') return true
  return scheme === 'data' && IMAGE_DATA_URL.test(url.trim())
}

function cleanAttr(tag: string, name: string, value: string): string | null {
  if (!GLOBAL_ATTRS.has(name) && !TAG_ATTRS[tag]?.has(name)) return null
  switch (name) {
    case 'href':
      return isSafeLink(value) ? value.trim() : null
    case 'src':
      return isSafeImageSrc(value) ? value.trim() : null
    case 'target':
      return value === '_blank' ? '_blank' : null
    case 'class':
      return /^[\w\s-]{1,200}$/.test(value) ? value : null
    case 'width':
    case 'height':
    case 'colspan':
    case 'rowspan':
    case 'start':
      return /^\d{1,4}$/.test(value) ? value : null
    default:
      return value.slice(0, 500)
  }
}

function write(nodes: readonly ChildNode[], out: string[], depth: number): void {
  for (const node of nodes) {
    if (node.type === ElementType.Text) {
      out.push(escapeText(node.data))
      continue
    }
    // Comments, CDATA, doctype and processing instructions go.
    if (node.type !== ElementType.Tag && node.type !== ElementType.Script && node.type !== ElementType.Style)
      continue
    const tag = node.name.toLowerCase()
    if (DROPPED_WITH_CONTENT.has(tag)) continue
    if (!ALLOWED_TAGS.has(tag) || depth >= MAX_DEPTH) {
      // Unknown wrappers go, their text stays.
      if (depth < MAX_DEPTH) write(node.children, out, depth + 1)
      continue
    }
    const attrs: string[] = []
    for (const [rawName, value] of Object.entries(node.attribs)) {
      const name = rawName.toLowerCase()
      const clean = cleanAttr(tag, name, value)
      if (clean !== null) attrs.push(` ${name}="${escapeAttr(clean)}"`)
    }
    if (tag === 'a' && node.attribs.target === '_blank') attrs.push(' rel="noopener noreferrer"')
    out.push(`<${tag}${attrs.join('')}>`)
    if (VOID_TAGS.has(tag)) continue
    write(node.children, out, depth + 1)
    out.push(`</${tag}>`)
  }
}

/** Rich HTML with scripts, event handlers, styles and dangerous URLs taken out. */
export function sanitizeHtml(html: string): string {
  const doc = parseDocument(html, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  })
  const out: string[] = []
  write(doc.children, out, 0)
  return out.join('')
}
