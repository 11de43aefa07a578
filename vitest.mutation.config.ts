import { defineConfig } from 'vitest/config'
import base from './vitest.config'

/**
 * The Vitest configuration StrykerJS runs (scripts/mutation.ts, docs/testing-the-code.md): the
 * settings of vitest.config.ts, with only the test files of the module under test, named in
 * MUTATION_TESTS (comma-separated), in their project.
 *
 * Two differences, both needed for a mutant in a module-level constant (a "static" mutant, which
 * takes effect only when its module is loaded again): every file gets a fresh module registry
 * (isolate), and the files are chosen here rather than with Stryker's own `testFiles` option, with
 * which Stryker 10.1 runs static mutants without reloading their module, so they always survive.
 */
const tests = (process.env.MUTATION_TESTS ?? '').split(',').filter((t) => t !== '')
if (tests.length === 0) throw new Error('vitest.mutation.config.ts: MUTATION_TESTS names no test file')

const client = tests.filter((t) => t.startsWith('client/'))
const others = tests.filter((t) => !t.startsWith('client/'))

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: [
      ...(others.length > 0
        ? [{ extends: true as const, test: { name: 'server', include: others, isolate: true } }]
        : []),
      ...(client.length > 0 ? [{ extends: true as const, test: { name: 'client', include: client } }] : []),
    ],
  },
})
