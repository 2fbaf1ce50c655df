// The house's import boundaries (docs/decisions/0060-lint-format-and-boundaries.md).
// `npm run deps:check` runs them over the tree; test/boundaries.test.ts runs the same config through
// dependency-cruiser's API (zero violations) and shows on planted fixtures that the rules bite.
// Paths are relative to the folder the cruise starts in (the repository root); each rule says why.

/** Marks a test file or test support that is not a test (x.test.ts, testing.ts, x-testing.ts, testing/). */
const TEST_FILE = '(\\.test\\.ts$|testing\\.ts$|/testing/)';

/** Node modules that reach outside the process (files, network, processes, threads, the environment). */
const NODE_IO = [
  'child_process',
  'cluster',
  'dgram',
  'dns',
  'dns/promises',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'inspector',
  'net',
  'os',
  'process',
  'readline',
  'readline/promises',
  'repl',
  'tls',
  'worker_threads',
];

/** Packages that do I/O or talk to a chain: a domain/ folder is handed their results, it never calls them. */
const IO_PACKAGES = ['drizzle-orm', 'postgres', '@electric-sql/pglite', 'ioredis', 'viem', 'undici', 'fastify', 'pino'];

const anyOf = (names) => names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cross-subgraph-import',
      severity: 'error',
      comment:
        'A subgraph never imports another subgraph (tests included): it calls the other through platform/upstream, ' +
        'a test that needs two subgraphs lives in test/, shared fixtures in test/fixtures/.',
      from: { path: '^subgraphs/([^/]+)/' },
      to: { path: '^subgraphs/', pathNot: '^subgraphs/$1/' },
    },
    {
      name: 'platform-not-to-subgraphs',
      severity: 'error',
      comment: 'platform/ is what every subgraph shares: it knows none of them.',
      from: { path: '^platform/' },
      to: { path: '^subgraphs/' },
    },
    {
      name: 'platform-not-to-contracts',
      severity: 'error',
      comment: 'platform/ does not depend on contracts/ (contracts/deploy.ts imports a subgraph; the token decimals belong to platform/chain).',
      from: { path: '^platform/', pathNot: TEST_FILE },
      to: { path: '^contracts/' },
    },
    {
      name: 'platform-tests-only-to-contract-artifacts',
      severity: 'error',
      comment: 'A platform test may read a generated ABI in contracts/artifacts/ (which imports nothing), nothing else of contracts/.',
      from: { path: [`^platform/.*${TEST_FILE}`, '^platform/testing/'] },
      to: { path: '^contracts/', pathNot: '^contracts/artifacts/' },
    },
    {
      name: 'contracts-not-to-subgraphs',
      severity: 'error',
      comment: 'contracts/ (sources, deploy, their tests) take their parameters as types of their own, not from a subgraph.',
      from: { path: '^contracts/' },
      to: { path: '^subgraphs/' },
    },
    {
      name: 'gateway-only-through-subgraph-index',
      severity: 'error',
      comment: 'The gateway and bin/ (the forecast MCP stdio entry included) reach a subgraph only through subgraphs/<name>/index.ts.',
      from: { path: '^(gateway|bin)/' },
      to: { path: '^subgraphs/', pathNot: '^subgraphs/[^/]+/index\\.ts$' },
    },
    {
      name: 'web-only-to-platform',
      severity: 'error',
      comment: 'web/ (the bundler, the page server, the browser apps) may use platform/; the gateway mounts it, not the other way round.',
      from: { path: '^web/' },
      to: { path: '^(gateway|subgraphs|contracts|bin)/' },
    },
    {
      name: 'only-gateway-to-web',
      severity: 'error',
      comment: 'The browser apps are mounted by the gateway: platform/ and the subgraphs know nothing of web/.',
      from: { path: '^(platform|subgraphs|contracts)/' },
      to: { path: '^web/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'A domain/ folder is pure logic: no platform/, no gateway/, no node I/O module, no database, chain, HTTP or logging package. ' +
        'Its tests may hand it a real collaborator (fees/domain/quote-id.test.ts signs with platform/signing).',
      from: { path: '^subgraphs/.*/domain/', pathNot: '\\.test\\.ts$' },
      to: {
        path: ['^platform/', '^gateway/', `^(node:)?(${anyOf(NODE_IO)})$`, `^node_modules/(${anyOf(IO_PACKAGES)})/`, `^(${anyOf(IO_PACKAGES)})(/|$)`],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles anywhere, type-only imports included (tsPreCompilationDeps).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-import-past-domain-barrel',
      severity: 'error',
      comment: 'From outside a domain/ folder import only its barrel (domain/index.ts), never one of its files.',
      from: { pathNot: '(^|/)domain/' },
      to: { path: '(^|/)domain/', pathNot: '(^|/)domain/index\\.ts$' },
    },
    {
      name: 'no-import-past-another-domain-barrel',
      severity: 'error',
      comment: 'A domain/ folder reaches another domain/ folder (a subgraph-wide one, say) only through its barrel.',
      from: { path: '^(.*/domain/)' },
      to: { path: '(^|/)domain/', pathNot: ['^$1', '(^|/)domain/index\\.ts$'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the checker cannot resolve is one it cannot check.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Generated or not code: contracts/artifacts (ABIs, kept as leaves so imports of them still count),
    // schema/, drizzle/migrations/, the embedded data folder, and the planted violations of the boundary test.
    exclude: { path: ['(^|/)node_modules/', '^data/', '^schema/', '^drizzle/migrations/', '^test/fixtures/boundaries/', '^coverage/'] },
    doNotFollow: { path: ['(^|/)node_modules/', '^contracts/artifacts/'] },
    moduleSystems: ['es6', 'cjs'],
    // Type-only imports are dependencies too: a cycle through `import type` is a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
