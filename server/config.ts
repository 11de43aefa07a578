import { isIP } from 'node:net'
import { join } from 'node:path'
import { z } from 'zod'
import { ROOT_DIR } from './paths'

/** What Fastify's `trustProxy` takes: off, every hop, a hop count, or addresses and ranges. */
export type TrustProxy = boolean | number | string[]

const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

/** An address, an address/prefix range, or one of proxy-addr's names. */
function isTrustEntry(entry: string): boolean {
  if (TRUST_NAMES.has(entry)) return true
  const [address = '', prefix, ...rest] = entry.split('/')
  const version = isIP(address)
  if (version === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  if (!/^\d{1,3}$/.test(prefix)) return false
  return Number(prefix) <= (version === 4 ? 32 : 128)
}

const boolFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')
const positiveInt = z.coerce.number().int().positive()

const envSchema = z
  .object({
    MODE: z.enum(['emulator', 'proxy']).default('emulator'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    UPSTREAM_URL: z.url({ protocol: /^https?$/ }).optional(),
    DB_PATH: z
      .string()
      .min(1)
      .default(join(ROOT_DIR, 'data', 'emulator.db')),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    CLIENT_DIST: z
      .string()
      .min(1)
      .default(join(ROOT_DIR, 'client', 'dist')),
    FIXTURES_DIR: z.string().min(1).default(join(ROOT_DIR, 'fixtures')),
    /** When set, every /__emu call must carry it in `x-emu-admin-token`; in proxy mode it also turns /__emu on. */
    EMU_ADMIN_TOKEN: z.string().min(16).optional(),
    SESSION_TTL_MS: positiveInt.default(7 * 24 * 3600 * 1000),
    SMS_RESEND_MS: positiveInt.default(60_000),
    SMS_TTL_MS: positiveInt.default(5 * 60_000),
    /** Requests per minute per client address on login, register and SMS. */
    RATE_LIMIT_LOGIN: positiveInt.default(20),
    RATE_LIMIT_REGISTER: positiveInt.default(10),
    RATE_LIMIT_SMS: positiveInt.default(10),
    /** Largest request body, in bytes. */
    BODY_LIMIT: positiveInt.default(1024 * 1024),
    /**
     * Which proxies in front of this server to believe about the client (X-Forwarded-For, -Proto,
     * -Host), read as Fastify's `trustProxy`: off by default; a hop count (`1`: the nearest proxy),
     * or a comma-separated list of addresses and CIDR ranges (`127.0.0.1,10.0.0.0/8`, and the names
     * `loopback`, `linklocal`, `uniquelocal`); `true` trusts every hop.
     */
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v, ctx): TrustProxy => {
        const text = v.trim()
        if (text === 'false') return false
        if (text === 'true') return true
        if (/^\d+$/.test(text)) return Number(text)
        const entries = text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
        for (const entry of entries) {
          if (!isTrustEntry(entry)) {
            ctx.addIssue({ code: 'custom', message: `not an address, CIDR range or hop count: ${entry}` })
          }
        }
        return entries.length > 0 ? entries : false
      }),
    /** Upstream connections kept open per proxy process. */
    PROXY_CONNECTIONS: positiveInt.default(64),
    /** Hosts the image proxy may fetch from, comma-separated. */
    IMAGE_PROXY_HOSTS: z.string().default(''),
    /** Links of the games' hash chain (one per 3 s block; 1,000,000 ≈ 34 days). Made on first use of the games. */
    GAME_CHAIN_LENGTH: positiveInt.default(1_000_000),
    /** Requests the /__emu journal keeps (a ring buffer); 0 turns it off. */
    EMU_JOURNAL_SIZE: z.coerce.number().int().min(0).max(1_000_000).default(2000),
    /** Seed of the fault rules' generators (probability, delay ranges). */
    EMU_SEED: z.coerce.number().int().default(1),
    /** Largest image the proxy passes on, in bytes. */
    IMAGE_PROXY_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
    /** Time for one proxied image, DNS and redirects included, in ms. */
    IMAGE_PROXY_TIMEOUT_MS: positiveInt.default(8_000),
    IMAGE_PROXY_MAX_REDIRECTS: z.coerce.number().int().min(0).max(10).default(3),
    /** Also fetch plain-http images (https only by default). */
    IMAGE_PROXY_ALLOW_HTTP: boolFlag.default(false),
    /** Image proxy calls per minute per client address. */
    RATE_LIMIT_IMAGE_PROXY: positiveInt.default(120),
    /** https origins /third may show in a frame, comma-separated; they also go into CSP frame-src. */
    THIRD_PARTY_ORIGINS: z
      .string()
      .default('https://tronscan.org')
      .transform((v, ctx) => {
        const origins = v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
        for (const o of origins) {
          if (!URL.canParse(o) || new URL(o).origin !== o || !o.startsWith('https://')) {
            ctx.addIssue({ code: 'custom', message: `not an https origin: ${o}` })
          }
        }
        return origins
      }),
    /**
     * The site's public origin (https://example.com), for the links the server writes (invite links).
     * Unset: http://localhost:<PORT>, right for a local run only. The request's Host is never used.
     */
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Port of the Prometheus metrics endpoint (`/metrics`); unset: no metrics endpoint. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Address the metrics endpoint binds to: this machine only unless set. */
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** `pretty` (coloured lines), `json` (one object a line), or `auto`: pretty on a terminal, JSON otherwise. */
    LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
    /** After SIGTERM: how long the server keeps serving, not ready, before it stops taking connections (ms). */
    SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
    /** Load shedding: answer 503 while the event loop lags more than this (ms); 0 turns the check off. */
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1_000),
    /** Load shedding: answer 503 while the process's resident memory is above this (MiB); 0 turns it off. */
    PRESSURE_MAX_RSS_MB: z.coerce.number().int().min(0).default(0),
    /** Proxy mode: a file (JSON or YAML) saying how the upstream differs from the contract (docs/upstream-adapter.md). */
    UPSTREAM_ADAPTER: z.string().min(1).optional(),
    /** Proxy mode: share of upstream answers checked against the contract, 0 to 1. */
    UPSTREAM_CONTRACT_SAMPLE: z.coerce.number().min(0).max(1).default(1),
    /** Proxy mode: an upstream answer that differs from the contract is passed on as is, or refused (502). */
    UPSTREAM_NONCONFORMING: z.enum(['pass', 'refuse']).default('pass'),
    /** Proxy mode: ready while the upstream has answered within this long (ms). */
    READY_UPSTREAM_MS: positiveInt.default(15_000),
    /** Events the push channel (/api/stream) keeps for reconnecting clients (a ring buffer). */
    STREAM_REPLAY_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(5000),
    /** A comment line on every open stream this often (ms), so proxies keep it open. */
    STREAM_HEARTBEAT_MS: positiveInt.default(15_000),
    /**
     * The deployment's Redis (`redis://[:password@]host:port[/db]`, `rediss://` for TLS), for running
     * several processes (docs/deploy.md): the push channel's events and replay log, the rate limits'
     * counts, the jobs' leases and, in proxy mode, the tester's fault set-up (docs/testing.md) are
     * shared through it. Unset: one process, all in memory.
     */
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  })
  .superRefine((env, ctx) => {
    if (env.MODE === 'proxy' && !env.UPSTREAM_URL) {
      ctx.addIssue({ code: 'custom', path: ['UPSTREAM_URL'], message: 'is required when MODE=proxy' })
    }
  })
  .transform((env) => ({ ...env, PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` }))

export type Config = z.infer<typeof envSchema>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Reads the settings from the environment; a bad or missing value throws, naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(input)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = i.path.join('.')
      const got = name in input ? ` (got ${JSON.stringify(input[name])})` : ''
      return `  ${name}: ${i.message}${got}`
    })
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  return parsed.data
}

/**
 * Config for tests and tools: defaults plus overrides, without reading process.env. Load shedding is
 * off unless a test turns it on: a test process's own synchronous work (hashing, a games chain) would
 * otherwise read as pressure. The games chain is 10,000 links (8 hours of blocks, made in about
 * 20 ms) instead of a million: made on one synchronous stretch, a million links hold the event loop
 * about 2 s on an idle machine and twenty times that on a busy one, just after a test's server starts
 * listening or inside its first game call, so whatever the test sent meanwhile ran into its time-out.
 */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    DB_PATH: ':memory:',
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    SHUTDOWN_DRAIN_MS: '0',
    GAME_CHAIN_LENGTH: '10000',
    ...overrides,
  })
}
