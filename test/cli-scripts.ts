import { readFileSync } from 'node:fs';

// Test support (not a test file): every script of package.json, sorted into the CLIs of ours, which
// answer --help and refuse an unknown option with their usage (platform/cli.ts, decision 0059), and
// the others, each with why. test/cli-help.test.ts runs the first and fails on a script in neither;
// test/readme-commands.test.ts checks that every script the README names is one of them.

export const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
  allowScripts?: Record<string, boolean>;
  overrides?: Record<string, unknown>;
};

/** Scripts running a CLI of ours: `npm run <script> -- --help` prints its usage and exits 0. */
export const OUR_CLIS = [
  'start',
  'serve',
  'compose',
  'keys',
  'reset',
  'db:migrate',
  'bench',
  'bench:access',
  'bench:compliance',
  'bench:intelligence',
  'bench:payments',
  'docs:errors',
  'docs:config',
  'mcp',
  'mcp:forecast',
  'contracts:compile',
  'data:refresh:compliance',
  'data:derive',
  'screenshots',
  'cluster',
  'soak',
] as const;

/** Scripts that are not a CLI of ours (or not yet one), and why. */
export const OTHER_SCRIPTS: Readonly<Record<string, string>> = {
  test: 'tsc, then vitest: their own --help',
  'test:soak': "vitest's own CLI: the short soak alone, beside test:rest in npm test (decision 0091)",
  'test:rest': "vitest's own CLI: every test but the short soak",
  typecheck: 'tsc --noEmit: its own --help',
  dev: "tsx watch over npm start: --help reaches npm start's usage, and the watcher keeps watching",
  'db:generate': "drizzle-kit's own CLI (npm run db:generate -- --help)",
  lint: "the linter's own CLI",
  format: "the formatter's own CLI",
  'deps:check': "dependency-cruiser's own CLI",
  'format:check': "the formatter's own CLI",
};
