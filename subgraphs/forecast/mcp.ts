import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { HttpServer } from '../../platform/http.js';
import { connectWithInputRule, type ToolErrorBody } from '../../platform/mcp-hygiene.js';
import { portfolioBodySchema, scenarioBodySchema, symbolSchema, tcfdBodySchema } from './inputs.js';
import type { ForecastService } from './service.js';

const asToolResult = (value: unknown) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});

/** The five forecast MCP tools, each calling the same service function as its REST path. */
export function createForecastMcpServer(service: ForecastService): McpServer {
  const server = new McpServer({ name: 'commodity-climate-forecast', version: '1.0.0' });
  server.registerTool('commodity.heat_check', { description: 'All 11 commodities with status GREEN/YELLOW/RED and a one-line signal.', inputSchema: {} }, async () =>
    asToolResult(await service.heatCheck()),
  );
  server.registerTool('commodity.forecast', { description: 'Full climate outlook for one commodity symbol.', inputSchema: { symbol: symbolSchema } }, async ({ symbol }) =>
    asToolResult(await service.commodityOutlook(symbol)),
  );
  server.registerTool('commodity.portfolio', { description: 'Climate stress test of positions [{symbol, notionalUsd}].', inputSchema: portfolioBodySchema.shape }, async (input) =>
    asToolResult(await service.portfolio(input)),
  );
  server.registerTool('commodity.scenario', { description: 'Apply one of the 9 built-in climate scenarios to positions.', inputSchema: scenarioBodySchema.shape }, async (input) =>
    asToolResult(await service.scenario(input)),
  );
  server.registerTool('commodity.tcfd', { description: 'Climate-related financial disclosure report (TCFD template) for positions.', inputSchema: tcfdBodySchema.shape }, async (input) =>
    asToolResult(await service.tcfdReport(input)),
  );
  return server;
}

/** A refused tool call in the forecast's error shape (Document 3 §7). */
export const forecastToolErrorBody: ToolErrorBody = (message) => ({ message, code: 'FCT_ERR_INVALID_BODY' });

/** Host names the MCP endpoint answers to; loopback always, plus the listening and public hosts. */
export function mcpHostnames(listeningHost: string, publicBaseUrl: string | undefined): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (!['0.0.0.0', '::', ''].includes(listeningHost)) names.add(listeningHost.includes(':') ? `[${listeningHost}]` : listeningHost);
  if (publicBaseUrl) names.add(new URL(publicBaseUrl).host);
  return [...names];
}

/**
 * Streamable HTTP at /forecast/mcp in stateless mode: each POST gets its own server and transport,
 * so any replica can answer any request.
 * 1. DNS-rebinding protection is on: a web page that rebinds its own name to 127.0.0.1 sends its
 *    own Host header, which is refused (403). The allowed hosts carry the port actually listened on.
 * 2. GET and DELETE answer 405 with `Allow: POST` (platform/http.ts), which is what the MCP client
 *    expects of a stateless server that offers no event stream.
 */
export function mountMcpEndpoint(app: HttpServer, service: ForecastService, hostnames: readonly string[]): void {
  app.post('/forecast/mcp', { config: { inputCheckedBy: 'mcp' } }, async (request, reply) => {
    const server = createForecastMcpServer(service);
    const port = (request.raw.socket.localPort ?? 0).toString();
    const allowedHosts = hostnames.flatMap((name) => (name.includes(':') && !name.startsWith('[') ? [name] : [name, `${name}:${port}`]));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await connectWithInputRule(server, transport, forecastToolErrorBody);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
}
