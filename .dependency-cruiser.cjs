/**
 * The house rules of docs/contributing.md and server/README.md, checked by `npm run lint`
 * (dependency-cruiser). Paths are relative to the repository; tests may cross the lines a test
 * needs to cross, so most rules leave out *.test.ts(x), test-support/ folders and test kits.
 */
const TESTS = ['\\.test\\.tsx?$', '/test-support/', '-test-kit\\.ts$']

/** What the composition root builds: another domain sees these only as types, handed in. */
const BUILT_BY_THE_ROOT = '-(repository|service|guard|store|seeder|routes|domain|context)\\.ts$'

module.exports = {
  forbidden: [
    {
      name: 'no-import-cycles',
      severity: 'error',
      comment:
        'No module imports itself through others, type-only imports included: a type-only cycle is ' +
        'erased at run time (verbatimModuleSyntax) but still ties the modules together, so neither ' +
        'can be read, moved or split alone. Types two modules share go in a module both import ' +
        '(bet-settlement.ts for BetService and RoundService, the zod-free first-screen.ts for the ' +
        'announcement, commitment.ts for the held commitments).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'sql-driver-only-in-repositories',
      severity: 'error',
      comment:
        'Only repositories run SQL: the driver (better-sqlite3) is imported by the db layer (server/db/) ' +
        'and by *-repository.ts files only; everyone else holds the Db they are handed. That no other ' +
        'module calls the driver or writes SQL text is checked by server/only-repositories-run-sql.test.ts.',
      from: { pathNot: ['^server/db/', '-repository\\.ts$', ...TESTS] },
      to: { path: '(^|/)node_modules/(@types/)?better-sqlite3/' },
    },
    {
      name: 'db-layer-only-below-the-routes',
      severity: 'error',
      comment:
        'The db layer (server/db/: the Db handle, transactions, migrations) is imported by the emulator ' +
        'below its routes (repositories, services, guards, stores, the composition root), the idempotency ' +
        'store and the atomic route (group commit), the push channel’s publisher (after-commit) and the ' +
        'benchmarks; not by routes, plugins, the client or shared/. What holds a Db may open a ' +
        'transaction with it; running SQL on it is for repositories only, which ' +
        'server/only-repositories-run-sql.test.ts checks.',
      from: {
        pathNot: [
          '^server/db/',
          '^server/emulator/(?!.*-routes\\.ts$)',
          '^server/http/(idempotency|idempotency-repository|contract-route)\\.ts$',
          '^server/realtime/publisher\\.ts$',
          '^scripts/bench',
          ...TESTS,
        ],
      },
      to: { path: '^server/db/' },
    },
    {
      name: 'domains-meet-in-the-composition-root',
      severity: 'error',
      comment:
        "A domain (server/emulator/<domain>/) uses another domain's repositories, services, guards, " +
        'stores, seeders and routes only as the composition root (server/emulator/emulator.ts) hands ' +
        'them over: it may import them for their types (import type), never build or call them ' +
        "itself. Another domain's pure helpers (no state, no SQL) may be imported.",
      from: { path: '^server/emulator/([^/]+)/', pathNot: TESTS },
      to: {
        path: `^server/emulator/[^/]+/.*${BUILT_BY_THE_ROOT}`,
        pathNot: '^server/emulator/$1/',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'only-the-root-builds-the-emulator',
      severity: 'error',
      comment: 'No domain imports the composition root: it is handed what it needs.',
      from: { path: '^server/emulator/[^/]+/', pathNot: TESTS },
      to: { path: '^server/emulator/emulator\\.ts$' },
    },
    {
      name: 'features-do-not-import-each-other',
      severity: 'error',
      comment:
        'A client feature (client/src/features/<feature>/) does not import another feature; what two ' +
        'features share goes in client/src/components/ or client/src/lib/.',
      from: { path: '^client/src/features/([^/]+)/' },
      to: { path: '^client/src/features/', pathNot: '^client/src/features/$1/' },
    },
    {
      name: 'client-never-imports-the-server',
      severity: 'error',
      comment: 'The players’ app (client/) never imports server code.',
      from: { path: '^client/', pathNot: TESTS },
      to: { path: '^server/' },
    },
    {
      name: 'players-app-never-imports-the-tester-contract',
      severity: 'error',
      comment:
        "The players' app (client/) never imports the tester's contract (shared/emu-contract/, " +
        "shared/emu-control.ts), and neither does the rest of shared/, so the app can't reach it " +
        'through a shared module either.',
      from: { path: ['^client/', '^shared/'], pathNot: ['^shared/emu-', ...TESTS] },
      to: { path: '^shared/emu-(contract/|control\\.ts$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(client/)?dist/' },
    // TypeScript 7 has no JavaScript API for dependency-cruiser to parse with, so swc parses the
    // sources (it marks `import type` as type-only); tsConfig gives the path aliases (@client/…).
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    skipAnalysisNotInRules: true,
    cache: false,
  },
}
