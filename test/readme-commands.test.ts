import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../gateway/server.js';
import { SUBGRAPH_NAMES } from '../gateway/subgraphs.js';
import { configVariables } from '../platform/config.js';
import { OTHER_SCRIPTS, OUR_CLIS, packageJson } from './cli-scripts.js';
import { startTestServer, testConfig, type TestServer } from './helpers.js';

/**
 * The README cannot drift from the project (issue 22 item 6: its "gateway alone" command named
 * three of the five subgraphs and failed as written). Every command it shows is checked or run:
 * npm scripts exist (and answer --help: test/cli-help.test.ts), `serve` targets are registered,
 * environment variables are declared in platform/config.ts, the gateway-alone command starts, the
 * curl examples answer 200, and the paths and links it names exist.
 */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const scripts = Object.keys(packageJson.scripts);
const every = (pattern: RegExp) => [...readme.matchAll(pattern)];

/** npm's own commands the README may name (not scripts). */
const NPM_COMMANDS = new Set(['install', 'ci']);
/** Variables the README may name that platform/config.ts does not read, each with why. */
const NOT_CONFIG_VARIABLES: Readonly<Record<string, string>> = {};

/** Shell words of one command line: single quotes literal, double quotes with backslash escapes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let at = 0; at < line.length; at += 1) {
    const char = line[at]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = line.indexOf("'", at + 1);
      word = (word ?? '') + line.slice(at + 1, end);
      at = end;
    } else if (char === '"') {
      let text = '';
      for (at += 1; line[at] !== '"'; at += 1) text += line[at] === '\\' && /["\\$`]/.test(line[at + 1] ?? '') ? line[++at] : line[at];
      word = (word ?? '') + text;
    } else {
      word = (word ?? '') + (char === '\\' ? line[++at] : char);
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The curl commands of the README's sh blocks, continuation lines joined. */
function curlCommands(): string[][] {
  const blocks = every(/```sh\n([\s\S]*?)```/g).map((match) => match[1]!.replace(/\\\n\s*/g, ' '));
  return blocks
    .flatMap((block) => block.split('\n'))
    .filter((line) => line.startsWith('curl '))
    .map(shellWords);
}

describe('the README shows only commands that work', () => {
  it('every npm script it names exists, and is a CLI of ours (answering --help) or one sorted in test/cli-scripts.ts', () => {
    const named = new Set(every(/\bnpm run (?:--silent |-s )?([\w:.-]+)/g).map((match) => match[1]!));
    for (const match of every(/\bnpm (start|test|install|ci)\b/g)) if (!NPM_COMMANDS.has(match[1]!)) named.add(match[1]!);
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((script) => !scripts.includes(script))).toEqual([]);
    const sorted = new Set<string>([...OUR_CLIS, ...Object.keys(OTHER_SCRIPTS)]);
    expect([...named].filter((script) => !sorted.has(script))).toEqual([]);
  });

  it('every `serve <target>` names a registered subgraph (or several), the gateway or the chain', () => {
    const targets = every(/npm run serve -- ([a-z][a-z,-]*)/g).map((match) => match[1]!);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      if (target === 'gateway' || target === 'chain') continue;
      expect(target.split(',').filter((name) => !(SUBGRAPH_NAMES as readonly string[]).includes(name))).toEqual([]);
    }
  });

  it('every keys command it shows is one the CLI has', () => {
    const commands = new Set(every(/npm run keys -- ([a-z-]+)/g).map((match) => match[1]!));
    expect([...commands].filter((command) => !['create', 'revoke', 'list', 'institutions', '--help'].includes(command))).toEqual([]);
  });

  it('every environment variable it names is declared in platform/config.ts (a name ending in _* a prefix of some)', () => {
    const declared = Object.values(configVariables).flatMap((section) => Object.values(section).map((variable) => (variable as { env: string }).env));
    const named = new Set(every(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(_\*)?/g).map((match) => match[1]! + (match[2] ?? '')));
    expect(named.size).toBeGreaterThan(10);
    const unknown = [...named].filter((name) => (name.endsWith('_*') ? !declared.some((env) => env.startsWith(name.slice(0, -1))) : !declared.includes(name) && !(name in NOT_CONFIG_VARIABLES)));
    expect(unknown).toEqual([]);
  });

  it('finding: the gateway-alone command named three of the five subgraphs and failed; as written it names each registered one and the gateway starts on it', async () => {
    const command = /`SUBGRAPH_URLS=(\S+) npm run serve -- gateway`/.exec(readme);
    expect(command).not.toBeNull();
    const config = testConfig({ SUBGRAPH_URLS: command![1]! });
    expect(Object.keys(config.gateway.subgraphUrls).sort()).toEqual([...SUBGRAPH_NAMES].sort());
    // The start's own check (the one that refused the old command), without listening.
    const server = await buildServer({ config, subgraphs: [], gateway: true });
    await server.close();
  });

  it('the files and links it names exist', () => {
    const links = every(/\]\(([^)#]+)\)/g)
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/.test(target));
    const paths = every(/`([A-Za-z.][\w.-]*\/[\w./-]*)`/g)
      .map((match) => match[1]!)
      // Paths under a top-level entry of the repository (not ./data, DATA_DIR/..., ../shared).
      .filter((path) => !path.startsWith('.') || path.startsWith('.ci/'))
      .filter((path) => existsSync(`${projectRoot}${path.split('/')[0]}`));
    expect(links.length + paths.length).toBeGreaterThan(10);
    expect([...links, ...paths].filter((path) => !existsSync(`${projectRoot}${path}`))).toEqual([]);
  });
});

describe('the README examples against the all-in-one server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ environment: { ADMIN_KEY: 'admin-key-for-the-readme-test-0123456789' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('every curl example answers 200 (GraphQL ones with data and no error)', { timeout: 120_000 }, async () => {
    const commands = curlCommands();
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const words of commands) {
      const target = words.find((word) => word.startsWith('localhost:4000'));
      expect(target, words.join(' ')).toBeDefined();
      const headers = Object.fromEntries(words.flatMap((word, at) => (words[at - 1] === '-H' ? [word.split(/:\s*/, 2) as [string, string]] : [])));
      const body = words[words.indexOf('-d') + 1];
      const response = await server.app.inject({
        method: words.includes('-d') ? 'POST' : 'GET',
        url: target!.slice('localhost:4000'.length),
        headers,
        ...(words.includes('-d') ? { payload: body } : {}),
      });
      expect({ command: words.slice(0, 3).join(' '), status: response.statusCode }).toEqual({ command: words.slice(0, 3).join(' '), status: 200 });
      if (target!.endsWith('/graphql')) {
        const answer = response.json<{ data?: unknown; errors?: unknown }>();
        expect(answer.errors).toBeUndefined();
        expect(answer.data).toBeTruthy();
      }
    }
  });

  it('every absolute path it names under a prefix of the server is routed (none answers 404)', async () => {
    const prefixes = server.subgraphs.flatMap((subgraph) => subgraph.restPrefixes);
    const firstSegments = new Set(['admin', 'subgraphs', 'graphql', 'health', 'metrics', 'rpc', ...prefixes.map((prefix) => prefix.slice(1))]);
    const paths = every(/`(\/[\w./-]+)`/g)
      .map((match) => match[1]!)
      // A prefix alone (`/stability`) names a service's base URL, not a route.
      .filter((path) => !path.includes('...') && !prefixes.includes(path) && firstSegments.has(path.split('/')[1]!));
    expect(paths.length).toBeGreaterThan(15);
    for (const path of new Set(paths)) {
      const response = await server.app.inject({ method: 'GET', url: path });
      expect({ path, status: response.statusCode }).not.toEqual({ path, status: 404 });
    }
  });
});
