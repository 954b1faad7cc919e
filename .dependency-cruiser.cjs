/**
 * The module map of ARCHITECTURE.md, enforced (`npm run lint:deps`, part of
 * `npm run lint` and CI). Each rule's comment says why it exists.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const SRC = '^packages/([^/]+)/src/';
const TEST_FILE = '(\\.test\\.tsx?$|^packages/[^/]+/test/)';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment:
        'A cycle means two modules can only be understood (and loaded) together; cut it with a narrow interface.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-type-cycles',
      severity: 'error',
      comment: 'Type-only cycles too: they tie the declarations of two folders together.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'folder-through-index',
      severity: 'error',
      comment:
        "Across folders only through the folder's index.ts: the index lists what a folder offers, the rest is its own business.",
      from: { path: `${SRC}([^/]+)/`, pathNot: TEST_FILE },
      to: { path: '^packages/$1/src/', pathNot: ['^packages/$1/src/$2/', '/index\\.ts$'] },
    },
    {
      name: 'root-file-through-index',
      severity: 'error',
      comment:
        "A package's root files (src/index.ts, its entry points) reach folders through their index.ts too.",
      from: { path: `${SRC}[^/]+$`, pathNot: TEST_FILE },
      to: { path: '^packages/$1/src/[^/]+/', pathNot: '/index\\.ts$' },
    },
    {
      name: 'packages-by-name',
      severity: 'error',
      comment:
        'Another package of the repo is imported by its name (what its package.json exports), never by a path into its source; only the UI takes the SDK paired comparison by source (ui-imports-only-pure-sources).',
      from: { path: '^packages/(protocol|sdk|server|cli|test-server)/src/', pathNot: TEST_FILE },
      to: { path: '^packages/[^/]+/src/', pathNot: '^packages/$1/src/' },
    },
    {
      name: 'test-server-only-in-tests',
      severity: 'error',
      comment: '@weft/test-server (private) starts servers for tests; no published source may depend on it.',
      from: { path: '^packages/(protocol|sdk|server|cli|ui)/src/', pathNot: TEST_FILE },
      to: { path: ['^packages/test-server/', '^node_modules/@weft/test-server'] },
    },
    {
      name: 'sdk-never-imports-server',
      severity: 'error',
      comment: 'Users of the SDK must not install the server (and its native SQLite module).',
      from: { path: '^packages/sdk/src/', pathNot: TEST_FILE },
      to: { path: ['^packages/(server|cli|ui)/', '^node_modules/@weft/(server|cli|ui)'] },
    },
    {
      name: 'protocol-stands-alone',
      severity: 'error',
      comment:
        '@weft/protocol is the single source of truth for the wire; it imports no other package of the repo.',
      from: { path: '^packages/protocol/' },
      to: { path: ['^packages/(sdk|server|cli|ui)/', '^node_modules/@weft/'] },
    },
    {
      name: 'protocol-subpaths-without-zod',
      severity: 'error',
      comment:
        "@weft/protocol's subpaths (/wire, /refs, /msgpack, /pricing, /errors, /trace, /messages) load no zod, so the web UI and light readers can take them; the schemas are the root's.",
      from: { path: '^packages/protocol/src/(wire|refs|msgpack|pricing|errors|trace|messages)/index\\.ts$' },
      to: { path: '^node_modules/zod/', reachable: true },
    },
    {
      name: 'server-never-imports-sdk-or-cli',
      severity: 'error',
      comment:
        'The server depends on the protocol only; the CLI and the SDK depend on it, never the reverse.',
      from: { path: '^packages/server/src/', pathNot: TEST_FILE },
      to: { path: ['^packages/(sdk|cli)/', '^node_modules/@weft/(sdk|cli)/'] },
    },
    {
      name: 'ui-imports-only-pure-sources',
      severity: 'error',
      comment:
        "The UI bundle takes @weft/protocol's zod-free subpaths (/wire, /refs, /pricing, /errors, /trace, /messages) by name and the SDK's paired comparison by source (its folder index would pull zod and node: built-ins into the browser), nothing else of the repo; types come from @weft/protocol.",
      from: { path: '^packages/ui/src/', pathNot: TEST_FILE },
      to: {
        // Types are erased at build, so the UI may take them from any package's declarations.
        dependencyTypesNot: ['type-only'],
        path: '^packages/(protocol|sdk|server|cli)/',
        pathNot: [
          '^packages/protocol/dist/(wire|refs|pricing|errors|trace|messages)/index\\.(js|d\\.ts)$',
          '^packages/sdk/src/eval/(paired-comparison|stats|t-critical)\\.ts$',
        ],
      },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '/dist/'] },
    // Declarations and builds are not excluded: an import of another package by its name resolves to its
    // dist/ (its .d.ts for types), and the package rules above must see that dependency. They are not followed.
    exclude: { path: ['otlp-proto/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
