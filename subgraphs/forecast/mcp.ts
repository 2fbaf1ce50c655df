import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { HttpServer } from '../../platform/http.js';
import type { ToolErrorBody } from '../../platform/mcp-hygiene.js';
import { allowedHostsFor, answerMcpPart, declareMcpPart, type McpPart } from '../../platform/mcp-parts.js';
import { portfolioBodySchema, scenarioBodySchema, symbolSchema, tcfdBodySchema } from './inputs.js';
import type { ForecastService } from './service.js';

export { mcpHostnames } from '../../platform/mcp-parts.js';

/** A refused tool call in the forecast's error shape (Document 3 §7). */
export const forecastToolErrorBody: ToolErrorBody = (message) => ({ message, code: 'FCT_ERR_INVALID_BODY' });

/**
 * The five MCP tools of the forecast specification (Document 3), each the documented route it
 * stands for; over HTTP they are this service's part of the one MCP server (decision 0080).
 */
const FORECAST_TOOLS = [
  { name: 'commodity.heat_check', route: 'GET /forecast/heat-check', description: 'All 11 commodities with status GREEN/YELLOW/RED and a one-line signal.' },
  { name: 'commodity.forecast', route: 'GET /forecast/commodity/:symbol', description: 'Full climate outlook for one commodity symbol.' },
  { name: 'commodity.portfolio', route: 'POST /forecast/portfolio', description: 'Climate stress test of positions [{symbol, notionalUsd}].' },
  { name: 'commodity.scenario', route: 'POST /forecast/scenario', description: 'Apply one of the 9 built-in climate scenarios to positions.' },
  { name: 'commodity.tcfd', route: 'POST /forecast/tcfd-report', description: 'Climate-related financial disclosure report (TCFD template) for positions.' },
] as const;

const FORECAST_SERVER = { name: 'commodity-climate-forecast', version: '1.0.0' } as const;

export const FORECAST_MCP_PART: McpPart = { path: '/forecast/mcp', server: FORECAST_SERVER, tools: FORECAST_TOOLS, toolErrorBody: forecastToolErrorBody };

const asToolResult = (value: unknown) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

/**
 * The five tools without a server around them, for `npm run mcp:forecast` (stdio, no data folder):
 * the same service functions as their routes, under the same names and descriptions.
 */
export function createForecastMcpServer(service: ForecastService): McpServer {
  const server = new McpServer(FORECAST_SERVER);
  const [heatCheck, forecast, portfolio, scenario, tcfd] = FORECAST_TOOLS;
  server.registerTool(heatCheck.name, { description: heatCheck.description, inputSchema: {} }, async () => asToolResult(await service.heatCheck()));
  server.registerTool(forecast.name, { description: forecast.description, inputSchema: { symbol: symbolSchema } }, async ({ symbol }) => asToolResult(await service.commodityOutlook(symbol)));
  server.registerTool(portfolio.name, { description: portfolio.description, inputSchema: portfolioBodySchema.shape }, async (input) => asToolResult(await service.portfolio(input)));
  server.registerTool(scenario.name, { description: scenario.description, inputSchema: scenarioBodySchema.shape }, async (input) => asToolResult(await service.scenario(input)));
  server.registerTool(tcfd.name, { description: tcfd.description, inputSchema: tcfdBodySchema.shape }, async (input) => asToolResult(await service.tcfdReport(input)));
  return server;
}

/**
 * POST /forecast/mcp: the forecast's part of the one MCP server (Streamable HTTP, stateless).
 * 1. DNS-rebinding protection is on: a web page that rebinds its own name to 127.0.0.1 sends its
 *    own Host header, which is refused (403). The allowed hosts carry the port actually listened on.
 * 2. GET and DELETE answer 405 with `Allow: POST` (platform/http.ts), which is what the MCP client
 *    expects of a stateless server that offers no event stream.
 */
export function mountMcpEndpoint(app: HttpServer, _service: ForecastService, hostnames: readonly string[]): void {
  declareMcpPart(app, FORECAST_MCP_PART);
  app.post(FORECAST_MCP_PART.path, { config: { inputCheckedBy: 'mcp' } }, async (request, reply) =>
    answerMcpPart(FORECAST_MCP_PART, request, reply, { allowedHosts: allowedHostsFor(hostnames, request) }),
  );
}
