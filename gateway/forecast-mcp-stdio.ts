import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { pino } from 'pino';
import { systemClock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/log.js';
import { connectWithInputRule } from '../platform/mcp-hygiene.js';
import { createSynthesiser } from '../platform/synthesis.js';
import { createStandaloneMcpServer, forecastToolErrorBody } from '../subgraphs/forecast/index.js';

/** The five forecast MCP tools over stdio, for agents that launch tools as processes. Logs go to stderr. */
const config = loadConfig();
const logger = createLogger({ logLevel: config.server.logLevel === 'info' ? 'warn' : config.server.logLevel, destination: pino.destination(2) });
const server = createStandaloneMcpServer({ config, logger, clock: systemClock, synthesiser: createSynthesiser(config, systemClock, logger) });
await connectWithInputRule(server, new StdioServerTransport(), forecastToolErrorBody);
