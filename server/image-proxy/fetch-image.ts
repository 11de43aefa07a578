import { lookup } from 'node:dns/promises'
import http from 'node:http'
import https from 'node:https'
import { isIP } from 'node:net'
import { type ImageType, isAcceptedContentType, sniffImageType } from './image-type'

/** An allow-list entry: a host (or `*.` and a domain, for its subdomains), on one port. */
export interface HostRule {
  readonly host: string
  readonly wildcard: boolean
  /** null: the scheme's default port only. */
  readonly port: number | null
}

export interface ProxyPolicy {
  readonly hosts: readonly HostRule[]
  readonly maxBytes: number
  /** For the whole fetch: DNS, every redirect hop, and the body. */
  readonly timeoutMs: number
  readonly maxRedirects: number
  readonly allowHttp: boolean
  /** Whether a resolved address may be connected to. Production: public unicast only. */
  readonly isAllowedAddress: (ip: string) => boolean
  /** Every address a host name resolves to. */
  readonly resolve: (host: string) => Promise<string[]>
}

export class ProxyRefusal extends Error {
  override name = 'ProxyRefusal'
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export const REFUSAL = {
  badUrl: () => new ProxyRefusal(400, '图片地址无效'),
  scheme: () => new ProxyRefusal(403, '不支持的图片地址协议'),
  host: () => new ProxyRefusal(403, '图片地址不在允许列表中'),
  address: () => new ProxyRefusal(403, '不允许访问该地址'),
  notImage: () => new ProxyRefusal(415, '只能代理图片'),
  tooLarge: () => new ProxyRefusal(413, '图片过大'),
  timeout: () => new ProxyRefusal(504, '图片加载超时'),
  redirects: () => new ProxyRefusal(502, '图片地址重定向次数过多'),
  upstream: (status?: number) => new ProxyRefusal(502, status ? `图片加载失败（${status}）` : '图片加载失败'),
} as const

/** "img.example.com, *.cdn.example.com, img.example.org:8443" → rules. Bad entries throw. */
export function parseHostList(list: string): HostRule[] {
  return list
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(\*\.)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(entry)
      if (!m?.[2]) throw new Error(`IMAGE_PROXY_HOSTS: bad entry ${entry}`)
      const port = m[3] === undefined ? null : Number(m[3])
      if (port !== null && (port < 1 || port > 65535))
        throw new Error(`IMAGE_PROXY_HOSTS: bad port in ${entry}`)
      return { host: m[2], wildcard: m[1] !== undefined, port }
    })
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80)

export function hostAllowed(url: URL, rules: readonly HostRule[]): boolean {
  const host = url.hostname.toLowerCase()
  const port = url.port === '' ? defaultPort(url.protocol) : Number(url.port)
  return rules.some((r) => {
    const hostOk = r.wildcard ? host.endsWith(`.${r.host}`) : host === r.host
    const portOk = r.port === null ? port === defaultPort(url.protocol) : port === r.port
    return hostOk && portOk
  })
}

export const systemResolve = async (host: string): Promise<string[]> =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address)

/** Checks one hop's URL against every rule and returns the one address to connect to. */
async function vet(url: URL, policy: ProxyPolicy): Promise<string> {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) throw REFUSAL.scheme()
  if (url.username || url.password) throw REFUSAL.badUrl()
  if (!hostAllowed(url, policy.hosts)) throw REFUSAL.host()
  const bare = url.hostname.replace(/^\[|\]$/g, '')
  let addresses: string[]
  if (isIP(bare)) addresses = [bare]
  else {
    try {
      addresses = await policy.resolve(bare)
    } catch {
      throw REFUSAL.upstream()
    }
  }
  // Every address must pass, not just the first: the connection goes to one we checked, so a
  // second lookup (DNS rebinding) never gets a say.
  if (addresses.length === 0) throw REFUSAL.upstream()
  if (!addresses.every((a) => policy.isAllowedAddress(a))) throw REFUSAL.address()
  const [first] = addresses
  if (!first) throw REFUSAL.upstream()
  return first
}

interface Hop {
  readonly status: number
  readonly location: string | undefined
  readonly contentType: string | undefined
  readonly body: Buffer | null
}

/** One GET to a checked address, with the Host and TLS name of the URL. Redirects are not followed. */
function get(url: URL, address: string, policy: ProxyPolicy, signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const isHttps = url.protocol === 'https:'
    const bare = url.hostname.replace(/^\[|\]$/g, '')
    const options: https.RequestOptions = {
      host: address,
      port: url.port === '' ? defaultPort(url.protocol) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      agent: false,
      signal,
      headers: { host: url.host, accept: 'image/*', 'user-agent': 'hashgame-image-proxy/1' },
    }
    if (isHttps && !isIP(bare)) options.servername = bare
    const req = (isHttps ? https : http).request(options, (res) => {
      const status = res.statusCode ?? 0
      const done = (hop: Hop) => resolve(hop)
      if (status >= 300 && status < 400) {
        res.resume()
        return done({ status, location: res.headers.location, contentType: undefined, body: null })
      }
      if (status < 200 || status >= 300) {
        res.resume()
        return reject(REFUSAL.upstream(status))
      }
      const contentType = res.headers['content-type']
      if (!isAcceptedContentType(contentType)) {
        res.destroy()
        return reject(REFUSAL.notImage())
      }
      const declared = Number(res.headers['content-length'])
      if (Number.isFinite(declared) && declared > policy.maxBytes) {
        res.destroy()
        return reject(REFUSAL.tooLarge())
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > policy.maxBytes) {
          res.destroy()
          reject(REFUSAL.tooLarge())
          return
        }
        chunks.push(chunk)
      })
      res.on('end', () => done({ status, location: undefined, contentType, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/**
 * Fetches an image for the screenshot helper. Each hop (the URL and every redirect) is checked
 * again: scheme, allow-listed host and port, and the resolved addresses. The answer must declare
 * and really be a raster image, within the size limit, and everything must finish in time.
 */
export async function fetchImage(
  rawUrl: string,
  policy: ProxyPolicy,
): Promise<{ body: Buffer; type: ImageType }> {
  let url: URL
  try {
    url = new URL(rawUrl)
  } catch {
    throw REFUSAL.badUrl()
  }
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), policy.timeoutMs)
  const timedOut = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(REFUSAL.timeout()), { once: true })
  })
  timedOut.catch(() => {})
  try {
    for (let hop = 0; ; hop++) {
      const address = await Promise.race([vet(url, policy), timedOut])
      let res: Hop
      try {
        res = await Promise.race([get(url, address, policy, controller.signal), timedOut])
      } catch (err) {
        if (err instanceof ProxyRefusal) throw err
        if (controller.signal.aborted) throw REFUSAL.timeout()
        throw REFUSAL.upstream()
      }
      if (res.body) {
        const type = sniffImageType(res.body)
        if (!type) throw REFUSAL.notImage()
        return { body: res.body, type }
      }
      if (!res.location) throw REFUSAL.upstream(res.status)
      if (hop >= policy.maxRedirects) throw REFUSAL.redirects()
      try {
        url = new URL(res.location, url)
      } catch {
        throw REFUSAL.upstream(res.status)
      }
    }
  } finally {
    clearTimeout(timer)
    if (!controller.signal.aborted) controller.abort()
  }
}
