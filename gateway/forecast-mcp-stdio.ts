import { pino } from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { systemClock } from '../platform/clock.js';
import { loadConfig } from '../platform/config.js';
import { createLogger } from '../platform/log.js';
import { createSynthesiser } from '../platform/synthesis.js';
import { dataSourceFor } from '../subgraphs/forecast/index.js';
import { connectWithInputRule } from '../platform/mcp-hygiene.js';
import { createForecastMcpServer, forecastToolErrorBody } from '../subgraphs/forecast/mcp.js';
import { createForecastService } from '../subgraphs/forecast/service.js';

/** The five forecast MCP tools over stdio, for agents that launch tools as processes. Logs go to stderr. */
const config = loadConfig();
const logger = createLogger({ logLevel: config.server.logLevel === 'info' ? 'warn' : config.server.logLevel, destination: pino.destination(2) });
const service = createForecastService({
  clock: systemClock,
  synthesiser: createSynthesiser(config, systemClock, logger),
  source: dataSourceFor(config, logger),
});
await connectWithInputRule(createForecastMcpServer(service), new StdioServerTransport(), forecastToolErrorBody);
