import { join } from 'node:path'
import { z } from 'zod'
import { ROOT_DIR } from './paths'

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
    TRUST_PROXY: boolFlag.default(false),
    /** Upstream connections kept open per proxy process. */
    PROXY_CONNECTIONS: positiveInt.default(64),
    /** Hosts the image proxy may fetch from, comma-separated. */
    IMAGE_PROXY_HOSTS: z.string().default(''),
  })
  .superRefine((env, ctx) => {
    if (env.MODE === 'proxy' && !env.UPSTREAM_URL) {
      ctx.addIssue({ code: 'custom', path: ['UPSTREAM_URL'], message: 'is required when MODE=proxy' })
    }
  })

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

/** Config for tests and tools: defaults plus overrides, without reading process.env. */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  return loadConfig({ LOG_LEVEL: 'silent', DB_PATH: ':memory:', ...overrides })
}
