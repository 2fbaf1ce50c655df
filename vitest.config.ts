import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

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
  },
});
