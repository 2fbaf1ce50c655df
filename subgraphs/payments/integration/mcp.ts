import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { preValidationHookHandler } from 'fastify';
import { tenantOf } from '../../../platform/access/admission.js';
import { type HttpServer, toAppError } from '../../../platform/http.js';
import { connectWithInputRule } from '../../../platform/mcp-hygiene.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { IntegrationHealth } from './health.js';
import type { Initiations } from './initiation.js';
import { MANIFEST_SERVER, manifestTools, MCP_PATH, type ToolDeps, toolNamed } from './manifest.js';
import type { Payments } from './service.js';

/**
 * POST /integration/mcp: the integration API as MCP tools (JSON-RPC 2.0 over Streamable HTTP,
 * stateless like /forecast/mcp: each POST gets its own server and transport, JSON answers, no event
 * stream). initialize, tools/list (exactly the manifest's tools) and tools/call (the same
 * functions as the REST paths, under the caller's request context).
 * 1. The institution bearer key is checked before the body is read, with the REST paths' own
 *    preValidation: the same 401, the same 1,000 requests per minute and X-RateLimit-* headers.
 * 2. A tool's error is a tool result with isError and the integration error body {error, code}
 *    (MCP: tool errors are results, so the model sees them); an unknown tool is a JSON-RPC error.
 * 3. The tools act as the key's institution, or as the admin, exactly as the REST paths do: each
 *    request's tools get the service and body readers of its tenant (decision 0050).
 * 4. No DNS-rebinding host check (unlike /forecast/mcp, which is open): a page that rebinds a name
 *    has no institution key to send.
 */

function resultOf(value: unknown, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    // structuredContent must be an object: a batch's array is given as text only.
    ...(typeof value === 'object' && value !== null && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {}),
    ...(isError ? { isError: true } : {}),
  };
}

/** One MCP server for one request: tools/call runs under that request's context. */
export function createPaymentsMcpServer(deps: ToolDeps, context: RequestContext): McpServer {
  const mcp = new McpServer(MANIFEST_SERVER, { capabilities: { tools: {} } });
  // The low-level handlers: tools/list answers the manifest's JSON Schemas byte for byte, which
  // registerTool (it converts zod shapes itself) would not guarantee.
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: manifestTools() }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolNamed(request.params.name);
    if (!tool) return resultOf({ error: `No tool named ${JSON.stringify(request.params.name.slice(0, 64))}.`, code: 'PAY_ERR_INVALID_REQUEST' }, true);
    try {
      return resultOf(await tool.call(deps, context, request.params.arguments ?? {}));
    } catch (error) {
      const refusal = toAppError(error);
      if (refusal.code === 'GEN_ERR_INTERNAL') throw error;
      return resultOf({ error: refusal.message, code: refusal.code }, true);
    }
  });
  return mcp;
}

/** What the endpoint serves every tenant from. */
export interface McpDeps {
  initiation: Initiations;
  payments: Payments;
  health: IntegrationHealth;
}

/** The tools' dependencies as the request's tenant has them. */
function toolDepsOf(deps: McpDeps, context: RequestContext): ToolDeps {
  const tenant = tenantOf(context);
  return { initiation: deps.initiation.for(tenant), service: deps.payments.for(tenant), health: deps.health };
}

export function registerMcpEndpoint(app: HttpServer, deps: McpDeps, institution: { preValidation: preValidationHookHandler }): void {
  app.post(
    MCP_PATH,
    { ...institution, config: { inputCheckedBy: 'mcp' }, schema: { summary: "MCP (JSON-RPC 2.0, Streamable HTTP, stateless): the manifest's tools, with the institution bearer key" } },
    async (request, reply) => {
      const server = createPaymentsMcpServer(toolDepsOf(deps, request.requestContext), request.requestContext);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await connectWithInputRule(server, transport, (message) => ({ error: message, code: 'PAY_ERR_INVALID_REQUEST' }));
      // The X-RateLimit-* headers set by the key check, on the raw answer the transport writes.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
}
