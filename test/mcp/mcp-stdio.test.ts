import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DPX_TOOL_NAMES } from '../../gateway/mcp/dpx-tools.js';
import { routeToolName } from '../../gateway/mcp/tool-names.js';
import { documentedCapabilities } from '../../platform/capabilities.js';
import { systemClock } from '../../platform/clock.js';
import { startTestServer, type TestServer } from '../helpers.js';

// `npm run --silent mcp` (the one MCP server on stdio) through the MCP SDK client, as an agent
// launches it: each process with a data folder of its own, one with RAIL_API_KEY and one without.
// REST answers come from an in-process server on the system clock, as the stdio processes run.

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const PATH = `${join(projectRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`;
const baseEnvironment = () => ({ PATH, HOME: process.env.HOME ?? '', DATA_DIR: join(mkdtempSync(join(tmpdir(), 'srg-mcp-stdio-')), 'data'), ORACLE_SCHEDULER: 'false' });

/** An API key created in the data folder with the admin CLI, before the MCP server holds the folder. */
async function createApiKey(environment: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'keys', '--', 'create', '--kind', 'api', '--label', 'stdio agent', '--limit', '50'], { cwd: projectRoot, env: environment });
  return /key \(shown once, store it now\): (\S+)/.exec(stdout)![1]!;
}

async function startStdio(environment: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: 'npm', args: ['run', '--silent', 'mcp'], cwd: projectRoot, env: environment, stderr: 'pipe' });
  // The logs on stderr are read and dropped: a full pipe would stop the process.
  transport.stderr?.on('data', () => undefined);
  await client.connect(transport, { timeout: 120_000 });
  // initialize is answered at once; the first tools/list waits for the rail in the process to start.
  await client.listTools(undefined, { timeout: 200_000 });
  return client;
}

/** Fields stamped with each process's clock or load time: two processes never agree on them. */
const CLOCK_FIELDS = new Set(['timestamp', 'generatedAt', 'loadedAt']);
function withoutClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutClock);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !CLOCK_FIELDS.has(key))
      .map(([key, field]) => [key, withoutClock(field)]),
  );
}

let server: TestServer;
let withKey: Client;
let withoutKey: Client;

beforeAll(async () => {
  const keyed = baseEnvironment();
  const apiKey = await createApiKey(keyed);
  [server, withKey, withoutKey] = await Promise.all([startTestServer({ clock: systemClock }), startStdio({ ...keyed, RAIL_API_KEY: apiKey }), startStdio(baseEnvironment())]);
}, 240_000);
afterAll(async () => {
  await Promise.all([withKey?.close(), withoutKey?.close()]);
  await server?.close();
});

/** A result's body: its structured content, or its JSON text where the outputSchema does not admit the error. */
const bodyOf = (result: CallToolResult) => result.structuredContent ?? (JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>);

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const rest = async (url: string, headers: Record<string, string> = {}) => {
  const response = await server.app.inject({ method: 'GET', url, headers: { host: 'localhost', ...headers } });
  return { status: response.statusCode, body: response.json() as Record<string, any> };
};

describe('npm run --silent mcp', () => {
  it('lists a tool for every documented capability, the part and dpx-mcp names and the graph tools', async () => {
    const names = new Set((await withKey.listTools()).tools.map((tool) => tool.name));
    const capabilities = await documentedCapabilities(server.app);
    expect(capabilities.map((operation) => routeToolName(operation, capabilities)).filter((name) => !names.has(name))).toEqual([]);
    expect([...DPX_TOOL_NAMES, 'commodity.forecast', 'payments.initiate', 'graphql.execute'].filter((name) => !names.has(name))).toEqual([]);
  });

  it.each([
    ['fees', 'stability.fee_schedule', {}, '/stability/fee-schedule'],
    ['compliance', 'compliance.lei.search', { name: 'Shell plc' }, '/compliance/lei/search?name=Shell%20plc'],
    ['payments', 'integration.rates.by_currency', { currency: 'EUR' }, '/integration/rates/EUR'],
    ['forecast', 'forecast.commodity.by_symbol', { symbol: 'WHEAT' }, '/forecast/commodity/WHEAT'],
    ['intelligence', 'intelligence.butterfly', {}, '/v1/intelligence/butterfly'],
  ])('%s: %s answers what REST answers for the same input', async (_subgraph, name, args, url) => {
    const result = await call(withKey, name, args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const expected = await rest(url);
    expect(expected.status).toBe(200);
    expect(withoutClock(result.structuredContent)).toEqual(withoutClock(expected.body));
  });

  it('a paid tool: without a key the PaymentRequired REST answers; with RAIL_API_KEY the result', async () => {
    const unpaid = await call(withoutKey, 'intelligence.commodity');
    expect(unpaid.isError).toBe(true);
    const expected = await rest('/v1/intelligence/commodity');
    expect(expected.status).toBe(402);
    // Each process deploys its own embedded rail (its own mnemonic in its data folder): the token and the treasury are its own.
    const ownRail = { asset: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), payTo: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) };
    expect(unpaid.structuredContent).toEqual({ ...expected.body, accepts: [{ ...expected.body.accepts[0], ...ownRail }] });
    const paid = await call(withKey, 'intelligence.commodity');
    expect(paid.isError, JSON.stringify(paid.content)).toBeFalsy();
    expect((paid.structuredContent as Record<string, unknown>).accepts).toBeUndefined();
  });

  it('bad input is a tool error naming the field; a stranger to the integration API is refused as REST refuses', async () => {
    const bad = await call(withKey, 'forecast.portfolio', { positions: [{ symbol: 'CORN', notionalUsd: 'lots' }] });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bodyOf(bad))).toContain('notionalUsd');
    const stranger = await call(withKey, 'payments.find', { tmsReference: 'TMS-NOT-MINE' });
    expect(stranger.isError).toBe(true);
    expect(bodyOf(stranger)).toEqual((await rest('/integration/payments?tmsReference=TMS-NOT-MINE')).body);
  });
});
