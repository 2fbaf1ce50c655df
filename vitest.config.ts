import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const require = createRequire(import.meta.url);

/**
 * The slowest files, slowest first (measured with `npx vitest run --reporter=json`; the two not yet
 * on every branch are the soak and the deployment checks). On a fresh clone, as on CI, vitest has
 * no durations of a last run and starts the largest files first: a short file that starts processes
 * (keys-cli, 33 lines, ~45 s) then started among the last ones and ran alone while the other core
 * idled. Started first, the slow files overlap each other and the many quick ones fill in at the end.
 */
const SLOWEST_FIRST = [
  'test/soak.test.ts',
  'subgraphs/compliance/reference/import.test.ts',
  'test/embedded-chain-restart.test.ts',
  'test/browser/dashboard.test.ts',
  'test/mcp/mcp-stdio.test.ts',
  'test/keys-while-running.test.ts',
  'test/keys-cli.test.ts',
  'platform/chain/chain-journal.test.ts',
  'test/cli-help.test.ts',
  'test/payments-processes.test.ts',
  'test/split-layout.test.ts',
  'test/rate-limit-processes.test.ts',
  'subgraphs/fees/quotes/store.test.ts',
  'test/attacks/cross-owner.test.ts',
  'test/mcp/mcp-http.test.ts',
  'test/graphql-guard.test.ts',
  'test/attacks/agent-authority.test.ts',
  'test/deployment.test.ts',
  'test/browser/dashboard-split.test.ts',
  'subgraphs/intelligence/predictive/routes.test.ts',
  'subgraphs/compliance/aml/routes.test.ts',
  'subgraphs/intelligence/reports/compliance-treasury.test.ts',
  'test/risk-dashboard.test.ts',
  'gateway/single-fetch.test.ts',
];

/** Vitest's order (the last run's durations where it has them, else size), with SLOWEST_FIRST ahead of it. */
class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.indexOf(relative(this.ctx.config.root, file.moduleId));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, position) => ({ file, position, rank: rank(file) }))
      .sort((a, b) => a.rank - b.rank || a.position - b.position)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  resolve: {
    // Node loads graphql's CommonJS entry for every package (Apollo included); Vite would pick
    // index.mjs for our files and make a second graphql realm. Point ours at the same entry.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'data/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files of one worker share a module graph: Apollo, the forecast data and a migrated PGlite
    // load once per worker instead of once per file (test/helpers.ts sharedTestDatabase).
    isolate: false,
    // Vitest's default is one worker per core less one: on CI's 2 cores a single worker, which
    // leaves a core idle while a test waits on a child process, PostgreSQL or a timer. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
