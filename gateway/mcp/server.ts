import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../platform/config.js';
import { MCP_PATH } from '../../platform/discovery.js';
import { AppError } from '../../platform/errors.js';
import type { HttpServer } from '../../platform/http.js';
import { connectWithInputRule, type StructuredRefusal, type ToolErrorBody } from '../../platform/mcp-hygiene.js';
import { allowedHostsFor, mcpHostnames, type McpPart, serveMcpParts } from '../../platform/mcp-parts.js';
import { pickForwardedHeaders, REQUEST_ID_HEADER } from '../../platform/request-context.js';
import { registerMcpDiscovery } from './discovery.js';
import type { ToolCall } from './tool.js';
import { toolResult } from './tool.js';
import { buildToolsets, type Toolset, type Toolsets, unknownTool } from './toolset.js';

export const RAIL_MCP_SERVER = { name: 'stablecoin-rail', version: '1.0.0' } as const;
const PAYMENT_META = 'x402/payment';

export { MCP_PATH };

/** `_meta["x402/payment"]` as our X-PAYMENT header: a PaymentPayload object is base64 JSON (x402's HTTP encoding), a string is taken as that encoding already. */
export function paymentHeaderOf(meta: Record<string, unknown> | undefined): string | undefined {
  const payment = meta?.[PAYMENT_META];
  if (typeof payment === 'string') return payment;
  if (typeof payment === 'object' && payment !== null) return Buffer.from(JSON.stringify(payment), 'utf8').toString('base64');
  return undefined;
}

/** What a connection's tools run on: the toolset and the caller; a promise while the process starts (stdio answers initialize at once). */
export interface McpConnection {
  toolset: Toolset;
  call: Omit<ToolCall, 'payment'>;
}

/**
 * One MCP server over a toolset, for one connection (a stateless HTTP request, or the stdio
 * process): tools/list lists the toolset; tools/call runs the tool as the caller, with the call's
 * own x402 payment. The low-level handlers list each tool's JSON Schemas as derived, byte for
 * byte, which registerTool (it converts zod shapes) would not.
 */
export function createRailMcpServer(connection: McpConnection | Promise<McpConnection>, info: { name: string; version: string }, errorUrl: string): McpServer {
  const mcp = new McpServer(info, { capabilities: { tools: {} } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await connection).toolset.tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
      annotations,
    })),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { toolset, call } = await connection;
    const tool = toolset.byName.get(request.params.name);
    if (!tool) return toolResult(unknownTool(call.app, errorUrl, request.params.name), { isError: true });
    return tool.run(request.params.arguments ?? {}, { ...call, payment: paymentHeaderOf(request.params._meta) });
  });
  return mcp;
}

/** The refusal body of a tool's arguments, in the error body of the tool's service. */
export function toolErrorBodyOf(app: HttpServer, toolset: Toolset, fallbackUrl: string): ToolErrorBody {
  return (message, toolName) => {
    const url = (toolName ? toolset.byName.get(toolName)?.errorUrl : undefined) ?? fallbackUrl;
    return app.errorShapes.answerFor(url, new AppError('GEN_ERR_BAD_REQUEST', { message })).body;
  };
}

/** What a tool call forwards of the MCP request: its credentials (not X-PAYMENT: each call brings its own), its host (the x402 resource) and request id. */
function callOf(app: HttpServer, request: FastifyRequest): Omit<ToolCall, 'payment'> {
  const { 'x-payment': _payment, ...credentials } = pickForwardedHeaders(request.headers);
  return { app, headers: { ...credentials, ...(request.headers.host ? { host: request.headers.host } : {}), [REQUEST_ID_HEADER]: request.id } };
}

/** The caller of the stdio server: the RAIL_* credentials of its environment, and the public host (the x402 resource) when PUBLIC_BASE_URL names one. */
export function stdioCall(app: HttpServer, config: Config): Omit<ToolCall, 'payment'> {
  const { apiKey, institutionKey, agentId, agentKey } = config.mcpStdio;
  const headers: Record<string, string> = {
    host: config.server.publicBaseUrl ? new URL(config.server.publicBaseUrl).host : 'localhost',
    ...(apiKey ? { 'x-api-key': apiKey } : {}),
    ...(institutionKey ? { authorization: `Bearer ${institutionKey}` } : {}),
    ...(agentId ? { 'x-agent-id': agentId } : {}),
    ...(agentKey ? { 'x-agent-key': agentKey } : {}),
  };
  return { app, headers };
}

/**
 * Streamable HTTP, stateless (each POST its own server and transport, JSON answers, no event
 * stream: any replica answers any request), as /forecast/mcp always was.
 */
/** A refused argument is a 400: structured where the tool's outputSchema admits its 400 body. */
export function structuredRefusalOf(toolset: Toolset): StructuredRefusal {
  return (toolName) => {
    const tool = toolName === undefined ? undefined : toolset.byName.get(toolName);
    return tool === undefined || tool.structuredError(400);
  };
}

async function answerOverHttp(
  request: FastifyRequest,
  reply: FastifyReply,
  server: McpServer,
  refusals: { body: ToolErrorBody; structured: StructuredRefusal },
  allowedHosts: readonly string[] | undefined,
): Promise<void> {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    ...(allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts: [...allowedHosts] } : {}),
  });
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await connectWithInputRule(server, transport, refusals.body, refusals.structured);
  // Headers set before the body was read (a key check's X-RateLimit-*), on the raw answer the transport writes.
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
  await transport.handleRequest(request.raw, reply.raw, request.body);
}

/**
 * The one MCP server of the process (decision 0080): POST /mcp with every tool, the services'
 * part endpoints (/forecast/mcp, /integration/mcp) with theirs, and the discovery documents.
 * Called once in buildServer after every route is registered; the tools are derived on first use
 * from the OpenAPI documents the routes publish.
 */
export function mountMcpServer(app: HttpServer, config: Config): void {
  const { host, publicBaseUrl, production } = config.server;
  const hostnames = mcpHostnames(host, publicBaseUrl);
  let toolsets: Promise<Toolsets> | undefined;
  const toolsetsOf = () => {
    // The introspection switch of the gateway: the schema is published where introspection is on.
    toolsets ??= buildToolsets(app, { introspection: !production });
    return toolsets;
  };
  app.post(MCP_PATH, { config: { inputCheckedBy: 'mcp' }, schema: { hide: true } }, async (request, reply) => {
    const { all } = await toolsetsOf();
    const server = createRailMcpServer({ toolset: all, call: callOf(app, request) }, RAIL_MCP_SERVER, MCP_PATH);
    await answerOverHttp(request, reply, server, { body: toolErrorBodyOf(app, all, MCP_PATH), structured: structuredRefusalOf(all) }, allowedHostsFor(hostnames, request));
  });
  serveMcpParts(app, async (part: McpPart, request, reply, partOptions) => {
    const toolset = (await toolsetsOf()).parts.get(part.path) ?? { tools: [], byName: new Map() };
    const server = createRailMcpServer({ toolset, call: callOf(app, request) }, part.server, part.path);
    await answerOverHttp(request, reply, server, { body: part.toolErrorBody, structured: structuredRefusalOf(toolset) }, partOptions.allowedHosts);
  });
  registerMcpDiscovery(app, { path: MCP_PATH, server: RAIL_MCP_SERVER });
}
