/**
 * Writes `.br` (brotli, quality 11) and `.gz` (gzip, level 9) next to every compressible file of the
 * built client, for @fastify/static's `preCompressed`. Runs after `vite build`.
 *
 *   tsx scripts/compress-assets.ts [dist]        (default: client/dist)
 */
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { extname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Text formats. Images, fonts (woff/woff2 are compressed already), audio and archives are left alone. */
export const COMPRESSIBLE_EXTENSIONS = new Set([
  '.js',
  '.mjs',
  '.cjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.map',
  '.txt',
  '.xml',
  '.wasm',
  '.ico',
])

/** Below this the saving is smaller than the cost of a second request path and a disk read. */
export const MIN_SIZE_BYTES = 1024

const ENCODINGS = [
  {
    suffix: '.br',
    compress: (data: Buffer) =>
      brotli(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
  },
  { suffix: '.gz', compress: (data: Buffer) => gz(data, { level: constants.Z_BEST_COMPRESSION }) },
] as const

export function isCompressible(path: string, size: number): boolean {
  return COMPRESSIBLE_EXTENSIONS.has(extname(path).toLowerCase()) && size >= MIN_SIZE_BYTES
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

export interface FileResult {
  path: string
  size: number
  /** Compressed size per written suffix; a suffix is absent when it did not make the file smaller. */
  written: Partial<Record<'.br' | '.gz', number>>
}

/** Compresses every eligible file under `dist`; a stale sibling that no longer pays off is removed. */
export async function compressDir(dist: string): Promise<FileResult[]> {
  const files = (await listFiles(dist)).filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'))
  const results: FileResult[] = []
  for (const path of files) {
    const { size } = await stat(path)
    if (!isCompressible(path, size)) continue
    const data = await readFile(path)
    const result: FileResult = { path, size, written: {} }
    await Promise.all(
      ENCODINGS.map(async ({ suffix, compress }) => {
        const packed = await compress(data)
        if (packed.length < data.length) {
          await writeFile(`${path}${suffix}`, packed)
          result.written[suffix] = packed.length
        } else {
          await rm(`${path}${suffix}`, { force: true })
        }
      }),
    )
    results.push(result)
  }
  return results
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`
}

export function summarize(dist: string, results: FileResult[]): string {
  const sum = (pick: (r: FileResult) => number) => results.reduce((acc, r) => acc + pick(r), 0)
  const original = sum((r) => r.size)
  const br = sum((r) => r.written['.br'] ?? r.size)
  const gzip = sum((r) => r.written['.gz'] ?? r.size)
  const skipped = results.filter((r) => r.written['.br'] === undefined && r.written['.gz'] === undefined)
  const shown = relative(process.cwd(), dist)
  const lines = [
    `compressed ${results.length - skipped.length} files in ${shown.startsWith('..') ? dist : shown || '.'}: ` +
      `${kb(original)} → brotli ${kb(br)}, gzip ${kb(gzip)}`,
  ]
  for (const r of skipped) lines.push(`  not smaller when compressed, left as is: ${relative(dist, r.path)}`)
  return lines.join('\n')
}

async function main(): Promise<void> {
  const dist = resolve(process.argv[2] ?? 'client/dist')
  const exists = await stat(dist).then(
    (s) => s.isDirectory(),
    () => false,
  )
  if (!exists) {
    process.stderr.write(`compress-assets: ${dist} does not exist; run \`vite build\` first\n`)
    process.exit(1)
  }
  const results = await compressDir(dist)
  process.stdout.write(`${summarize(dist, results)}\n`)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`compress-assets: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  })
}
