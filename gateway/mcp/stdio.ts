import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { loadConfig } from '../../platform/config.js';
import { createLogger } from '../../platform/log.js';
import { connectWithInputRule, type StructuredRefusal, type ToolErrorBody } from '../../platform/mcp-hygiene.js';
import { buildServer, type BuiltServer } from '../server.js';
import { createRailMcpServer, MCP_PATH, type McpConnection, RAIL_MCP_SERVER, stdioCall, structuredRefusalOf, toolErrorBodyOf } from './server.js';
import { buildToolsets } from './toolset.js';

/**
 * `npm run --silent mcp`: the one MCP server over stdio, for agents that launch their tools as a
 * process. The whole rail runs in this process on the embedded defaults (or DATABASE_URL ...),
 * listening on no port; every tool call is its route, run in-process. Stdout carries JSON-RPC
 * only; logs go to stderr. The caller's credentials are the RAIL_* variables (docs/mcp.md).
 * The server answers initialize at once; tools/list and tools/call wait for the rail to start.
 */
const config = loadConfig();
const logger = createLogger({ logLevel: config.server.logLevel === 'info' ? 'warn' : config.server.logLevel, destination: pino.destination(2) });
let built: BuiltServer | undefined;
let toolErrorBody: ToolErrorBody | undefined;
let structuredRefusal: StructuredRefusal | undefined;

async function startRail(): Promise<McpConnection> {
  built = await buildServer({ config, logger });
  await built.app.ready();
  const { all } = await buildToolsets(built.app, { introspection: !config.server.production });
  toolErrorBody = toolErrorBodyOf(built.app, all, MCP_PATH);
  structuredRefusal = structuredRefusalOf(all);
  logger.info({ tools: all.tools.length }, 'MCP server on stdio');
  return { toolset: all, call: stdioCall(built.app, config) };
}

const connection = startRail();
connection.catch((error: unknown) => {
  logger.error({ err: error }, 'the rail could not start');
  process.exit(1);
});
const server = createRailMcpServer(connection, RAIL_MCP_SERVER, MCP_PATH);
let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await connection.catch(() => undefined);
  await built?.close();
  process.exit(0);
}
const transport = new StdioServerTransport();
transport.onclose = () => void stop();
process.stdin.on('end', () => void stop());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());
// Until the rail has started, a refused argument gets the generic error body.
await connectWithInputRule(
  server,
  transport,
  (message, toolName) => toolErrorBody?.(message, toolName) ?? { error: message, code: 'GEN_ERR_BAD_REQUEST' },
  (toolName) => structuredRefusal?.(toolName) ?? false,
);
