import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { loadConfig } from '../../platform/config.js';
import { createLogger } from '../../platform/log.js';
import { connectWithInputRule } from '../../platform/mcp-hygiene.js';
import { buildServer } from '../server.js';
import { stdioCall } from './server.js';
import { createRailMcpServer, MCP_PATH, RAIL_MCP_SERVER, toolErrorBodyOf } from './server.js';
import { buildToolsets } from './toolset.js';

/**
 * `npm run --silent mcp`: the one MCP server over stdio, for agents that launch their tools as a
 * process. The whole rail runs in this process on the embedded defaults (or DATABASE_URL ...),
 * not listening on any port; every tool call is its route, run in-process. Stdout carries JSON-RPC
 * only; logs go to stderr. The caller's credentials are the RAIL_* variables (docs/mcp.md).
 */
const config = loadConfig();
const logger = createLogger({ logLevel: config.server.logLevel === 'info' ? 'warn' : config.server.logLevel, destination: pino.destination(2) });
const built = await buildServer({ config, logger });
await built.app.ready();
const { all } = await buildToolsets(built.app, { introspection: !config.server.production });
const server = createRailMcpServer(all, RAIL_MCP_SERVER, stdioCall(built.app, config), MCP_PATH);
const transport = new StdioServerTransport();
let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await built.close();
  process.exit(0);
}
transport.onclose = () => void stop();
process.stdin.on('end', () => void stop());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop());
await connectWithInputRule(server, transport, toolErrorBodyOf(built.app, all, MCP_PATH));
logger.info({ tools: all.tools.length }, 'MCP server on stdio');
