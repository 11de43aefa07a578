import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, testConfig } from './config'
import { ROOT_DIR } from './paths'

describe('configuration from the environment', () => {
  it('starts in emulator mode on port 3000 with nothing set', () => {
    const config = loadConfig({})
    expect(config.MODE).toBe('emulator')
    expect(config.PORT).toBe(3000)
    expect(config.DB_PATH).toMatch(/emulator\.db$/)
  })

  it('names a bad value and the value given', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT.*"eighty"/)
    expect(() => loadConfig({ MODE: 'mock' })).toThrow(/MODE/)
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/)
  })

  it('requires UPSTREAM_URL in proxy mode', () => {
    expect(() => loadConfig({ MODE: 'proxy' })).toThrow(/UPSTREAM_URL: is required when MODE=proxy/)
    expect(() => loadConfig({ MODE: 'proxy', UPSTREAM_URL: 'not a url' })).toThrow(/UPSTREAM_URL/)
    expect(loadConfig({ MODE: 'proxy', UPSTREAM_URL: 'http://127.0.0.1:4000' }).UPSTREAM_URL).toBe(
      'http://127.0.0.1:4000',
    )
  })

  it('takes REDIS_URL as a redis:// or rediss:// address, and nothing else', () => {
    expect(loadConfig({}).REDIS_URL).toBeUndefined()
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/0' }).REDIS_URL).toBe('redis://127.0.0.1:6379/0')
    expect(loadConfig({ REDIS_URL: 'rediss://:secret@cache.internal:6380' }).REDIS_URL).toBe(
      'rediss://:secret@cache.internal:6380',
    )
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL/)
    expect(() => loadConfig({ REDIS_URL: '127.0.0.1:6379' })).toThrow(/REDIS_URL/)
  })

  it('reads TRUST_PROXY as off, every hop, a hop count, or addresses and ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2)
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ])
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0/8', 'example.com', '1.2.3.4/8/9', '-1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/)
    }
  })

  it('takes PUBLIC_URL as given, else http://localhost:<PORT>', () => {
    expect(loadConfig({}).PUBLIC_URL).toBe('http://localhost:3000')
    expect(loadConfig({ PORT: '8080' }).PUBLIC_URL).toBe('http://localhost:8080')
    expect(loadConfig({ PUBLIC_URL: 'https://play.example.com' }).PUBLIC_URL).toBe('https://play.example.com')
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x.example' })).toThrow(/PUBLIC_URL/)
  })
})

describe('the README', () => {
  it('lists every setting the server reads', () => {
    const lines = readFileSync(join(ROOT_DIR, 'README.md'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('| `'))
    // A row may shorten its siblings: `RATE_LIMIT_LOGIN` / `_REGISTER` / `_SMS`.
    const listed = (name: string) =>
      lines.some(
        (l) =>
          l.includes(`\`${name}\``) ||
          [...name.matchAll(/_/g)].some(
            (m) => l.includes(`\`${name.slice(m.index)}\``) && l.includes(`\`${name.slice(0, m.index)}_`),
          ),
      )
    const missing = Object.keys(testConfig()).filter((name) => !listed(name))
    expect(missing).toEqual([])
  })
})
