/**
 * Raster image types the proxy passes on, told apart by their first bytes. SVG is not among
 * them: it can carry script, and the proxy answers from our own origin.
 */
export type ImageType =
  | 'image/png'
  | 'image/jpeg'
  | 'image/gif'
  | 'image/webp'
  | 'image/avif'
  | 'image/bmp'
  | 'image/x-icon'

/** Declared content types we accept (before the bytes are checked). */
const DECLARED = new Set([
  'image/png',
  'image/apng',
  'image/jpeg',
  'image/jpg',
  'image/pjpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
])

export function isAcceptedContentType(header: string | undefined): boolean {
  if (!header) return false
  const type = header.split(';')[0]?.trim().toLowerCase() ?? ''
  return DECLARED.has(type)
}

const startsWith = (buf: Buffer, bytes: readonly number[], at = 0) =>
  buf.length >= at + bytes.length && bytes.every((b, i) => buf[at + i] === b)
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0))

/** The image type the bytes really are, or null when they are not a raster image we know. */
export function sniffImageType(buf: Buffer): ImageType | null {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(buf, ascii('GIF87a')) || startsWith(buf, ascii('GIF89a'))) return 'image/gif'
  if (startsWith(buf, ascii('RIFF')) && startsWith(buf, ascii('WEBP'), 8)) return 'image/webp'
  if (startsWith(buf, ascii('ftypavif'), 4) || startsWith(buf, ascii('ftypavis'), 4)) return 'image/avif'
  if (startsWith(buf, ascii('BM')) && buf.length >= 26) return 'image/bmp'
  if (startsWith(buf, [0x00, 0x00, 0x01, 0x00]) && buf.length >= 22) return 'image/x-icon'
  return null
}
