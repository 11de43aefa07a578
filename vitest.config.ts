import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Server tests that replace a module (vi.mock): they need a module registry of their own, since in
 * the shared one the module under test may already hold the real import.
 */
const OWN_REGISTRY = [
  'server/emulator/account/password-guard.test.ts',
  'server/emulator/account/password-locks.test.ts',
]

export default defineConfig({
  // @client/…, @shared/…, @server/… as tsconfig.json's paths say.
  resolve: { tsconfigPaths: true },
  test: {
    environment: 'node',
    // Mutation testing's sandbox holds a copy of every test file (npm run test:mutation).
    exclude: [...configDefaults.exclude, '.stryker-tmp/**', 'reports/**'],
    // Makes happy-dom behave as browsers do where DOMPurify depends on it; a no-op elsewhere.
    setupFiles: ['client/src/test-support/happy-dom-fixes.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One fork per core. Vitest's default keeps a core back for its own process, which on a 2-core
    // machine runs the files one at a time: 153 s there against 83–95 s with both cores, and the
    // main process is idle while the forks work.
    maxWorkers: '100%',
    projects: [
      // Server, contract and script tests share one module registry per fork (isolate: false): each
      // builds its own app and database, and what their modules keep at module level are pure caches
      // (password hashes, priced odds). Importing Fastify and the server's modules once per fork
      // instead of once per file took the unit run from 128 s to 77 s on a 2-core machine (85 s
      // without Vitest's timing cache). Client tests keep a fresh registry per file: their modules
      // hold the session, toasts and SWR's cache, which a test must not inherit from another file.
      {
        extends: true,
        test: {
          name: 'server',
          include: [
            'server/**/*.test.ts',
            'shared/**/*.test.ts',
            'scripts/**/*.test.ts',
            'fixtures/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, '.stryker-tmp/**', 'reports/**', ...OWN_REGISTRY],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'server-mocks', include: OWN_REGISTRY },
      },
      {
        extends: true,
        test: { name: 'client', include: ['client/**/*.test.{ts,tsx}'] },
      },
    ],
  },
})
