import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run against each package's TypeScript source, so a change is tested
// without rebuilding its dependencies first.
const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));
const alias = [
  { find: /^@weft\/protocol$/, replacement: src('protocol') },
  {
    find: /^@weft\/protocol\/(wire|refs|msgpack|pricing|errors|trace|messages)$/,
    replacement: fileURLToPath(new URL('./packages/protocol/src/$1/index.ts', import.meta.url)),
  },
  { find: /^@weft\/server$/, replacement: src('server') },
  {
    find: /^@weft\/server\/testing$/,
    replacement: fileURLToPath(new URL('./packages/server/src/testing/index.ts', import.meta.url)),
  },
  { find: /^@weft\/test-server$/, replacement: src('test-server') },
  { find: /^@weft\/sdk$/, replacement: src('sdk') },
  ...['eval', 'errors', 'diagnostics'].map((entry) => ({
    find: new RegExp(`^@weft/sdk/${entry}$`),
    replacement: fileURLToPath(new URL(`./packages/sdk/src/${entry}.ts`, import.meta.url)),
  })),
  {
    find: /^@weft\/sdk\/testing$/,
    replacement: fileURLToPath(new URL('./packages/sdk/src/testing/index.ts', import.meta.url)),
  },
  {
    find: /^@weft\/sdk\/openai$/,
    replacement: fileURLToPath(new URL('./packages/sdk/src/integrations/openai/index.ts', import.meta.url)),
  },
  {
    find: /^@weft\/sdk\/anthropic$/,
    replacement: fileURLToPath(
      new URL('./packages/sdk/src/integrations/anthropic/index.ts', import.meta.url),
    ),
  },
  {
    find: /^@weft\/sdk\/monitor$/,
    replacement: fileURLToPath(new URL('./packages/sdk/src/monitor/index.ts', import.meta.url)),
  },
  {
    find: /^@weft\/sdk\/mcp$/,
    replacement: fileURLToPath(new URL('./packages/sdk/src/integrations/mcp/index.ts', import.meta.url)),
  },
  {
    find: /^@weft\/sdk\/replay$/,
    replacement: fileURLToPath(new URL('./packages/sdk/src/replay/index.ts', import.meta.url)),
  },
  {
    find: /^@weft\/sdk\/outbox$/,
    replacement: fileURLToPath(new URL('./packages/sdk/src/outbox-admin/index.ts', import.meta.url)),
  },
];

/**
 * How long a test and a hook may take before they fail: a hang fails fast.
 * Each project's default is a few times its slowest honest test or hook,
 * measured with `--reporter=verbose` on 2 cores shared with other runs
 * (slowest test / hook): protocol 0.8 s / ~0; sdk 17 s (caller-contract's
 * random throw points) / 2 s; server 7.5 s / 3 s; cli 2.5 s / 2 s; ui 8.6 s /
 * 6 s (chromium and seeding); test-server 7.5 s (a child server started
 * twice) / ~0. A test that needs more says so with its own
 * timeout argument (the fault suites, turn-memory, the CLI's ClickHouse replicas).
 */
interface Timeouts {
  testTimeout: number;
  hookTimeout: number;
}

/**
 * The fast loop: `npm run test:fast` (WEFT_TESTS=fast) runs every project but
 * server-clickhouse and server-chdb, without the slow suites; `npm test` runs everything.
 * Where a slow test goes, so the fast loop leaves it out:
 * - `*.slow.test.ts`, in any package: process kills and crashes, fault
 *   tables, memory bounds, long property runs, child processes started from
 *   the built packages — a file that takes more than a few seconds on its own;
 * - `packages/ui/test/`: the browser suite (chromium);
 * - the server-clickhouse project (`packages/server/test/clickhouse/`,
 *   `src/storage/clickhouse/`): ClickHouse processes.
 */
const FAST = process.env.WEFT_TESTS === 'fast';
const SLOW = ['**/*.slow.test.ts'];
const BROWSER = ['test/**'];

const project = (name: string, timeouts: Timeouts, extra: { exclude?: string[] } = {}) => ({
  resolve: { alias },
  test: {
    name,
    root: `packages/${name}`,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    ...timeouts,
    ...extra,
    // The fast loop reuses each worker's modules across its files (files
    // still run one at a time per worker): importing the packages and zod
    // again for every file was ~140 s of its ~220 s of CPU. `npm test` (CI)
    // keeps every file isolated, so a test leaning on another file's module
    // state still fails there.
    ...(FAST ? { isolate: false } : {}),
    exclude: [
      '**/node_modules/**',
      ...(extra.exclude ?? []),
      ...(FAST ? SLOW : []),
      ...(FAST && name === 'ui' ? BROWSER : []),
    ],
  },
});

/**
 * The HTTP API suite and the storage conformance suite (test/storage-conformance,
 * the `Storage` contract checked through the interface) once more, against
 * ClickHouse instead of SQLite: one
 * ClickHouse process for the whole run (started by the global setup, ~3–5 s),
 * a fresh database per test server (see packages/server/test/support/test-storage.ts).
 * Tests that need ClickHouse's own processes (replicas, outage, cluster) live
 * in test/clickhouse and run only here.
 */
const API_SUITE = [
  'alerts',
  'auth',
  'backpressure-soak.slow',
  'calls-cost',
  'calls-implied-latency',
  'calls-ingest',
  'calls-query',
  'calls-values',
  'dashboards',
  'evaluators',
  'evaluators-judge',
  'data-deletion',
  'data-export',
  'data-retention',
  'fuzz-endpoints.slow',
  'fuzz-http.slow',
  'fuzz-otlp.slow',
  'fuzz-requests.slow',
  'loop',
  'metrics-rollups',
  'objects',
  'otlp-ingest',
  'otlp-usage-rollup',
  'scheduled-export',
  'security-logs',
  'tables-dedup',
  'tables-files',
  'validation',
].map((name) => `test/${name}.test.ts`);

const serverOnClickHouse = {
  resolve: { alias },
  test: {
    name: 'server-clickhouse',
    root: 'packages/server',
    include: [
      ...API_SUITE,
      'test/storage-conformance/**/*.test.ts',
      'test/clickhouse/**/*.test.ts',
      'src/storage/clickhouse/**/*.test.ts',
    ],
    globalSetup: ['test/support/clickhouse-global-setup.ts'],
    env: { WEFT_TEST_STORAGE: 'clickhouse' },
    // Kept long: ClickHouse's window paging walk took 56 s under load, and the
    // server's test files (which it shares) carry no timeouts of their own.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
};

/**
 * The same suites on the engine users run: ClickHouse 26 in-process (npm
 * `chdb`, installed by the global setup when missing, never by `npm ci`).
 * Not test/clickhouse: those tests need ClickHouse processes of their own
 * (replicas, outage, cluster), which chDB, a library, is not.
 */
const serverOnChdb = {
  resolve: { alias },
  test: {
    name: 'server-chdb',
    root: 'packages/server',
    include: [...API_SUITE, 'test/storage-conformance/**/*.test.ts'],
    globalSetup: ['test/support/chdb-global-setup.ts'],
    env: { WEFT_TEST_STORAGE: 'chdb' },
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
};

export default defineConfig({
  test: {
    // vitest runs `availableParallelism() - 1` files at a time: one, on this
    // 2-core machine, though a file spends most of its time waiting on its
    // loopback server. The fast loop runs two (its files share no port,
    // folder or process); `npm test` keeps the default for the slow suites.
    ...(FAST ? { maxWorkers: 2 } : {}),
    projects: [
      project('protocol', { testTimeout: 10_000, hookTimeout: 10_000 }),
      project('sdk', { testTimeout: 60_000, hookTimeout: 30_000 }),
      project(
        'server',
        { testTimeout: 30_000, hookTimeout: 30_000 },
        { exclude: ['test/clickhouse/**', 'src/storage/clickhouse/**'] },
      ),
      ...(FAST ? [] : [serverOnClickHouse, serverOnChdb]),
      project('cli', { testTimeout: 15_000, hookTimeout: 30_000 }),
      project('ui', { testTimeout: 30_000, hookTimeout: 30_000 }),
      project('test-server', { testTimeout: 30_000, hookTimeout: 10_000 }),
    ],
  },
});
