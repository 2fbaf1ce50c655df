import type { preValidationHookHandler } from 'fastify';
import type { HttpServer } from '../../../platform/http.js';
import type { ToolErrorBody } from '../../../platform/mcp-hygiene.js';
import { answerMcpPart, declareMcpPart, type McpPart, type McpPartTool } from '../../../platform/mcp-parts.js';
import { MANIFEST_SERVER, manifestTools, MCP_PATH } from './manifest.js';

/**
 * POST /integration/mcp: the integration API's part of the one MCP server (decision 0080),
 * JSON-RPC 2.0 over Streamable HTTP, stateless like /forecast/mcp. tools/list answers the
 * manifest's tools (GET /integration/manifest: their names, titles and JSON Schemas, byte for
 * byte); tools/call runs the REST route each stands for, as the caller.
 * 1. The institution bearer key is checked before the body is read, with the REST paths' own
 *    preValidation: the same 401, the same 1,000 requests per minute and X-RateLimit-* headers.
 *    Each tool call is then the REST request it stands for, counted as REST counts it.
 * 2. A tool's error is a tool result with isError and the integration error body {error, code}
 *    (MCP: tool errors are results, so the model sees them).
 * 3. The tools act as the key's institution, or as the admin, exactly as the REST paths do: they
 *    are the REST paths (decision 0050).
 * 4. No DNS-rebinding host check (unlike /forecast/mcp, which is open): a page that rebinds a name
 *    has no institution key to send.
 */

const integrationToolErrorBody: ToolErrorBody = (message) => ({ error: message, code: 'PAY_ERR_INVALID_REQUEST' });

/** The route a manifest tool stands for, from its title: `GET /integration/payments/{railPaymentId}` is `GET /integration/payments/:railPaymentId`. */
function routeOfTitle(title: string): string {
  const [method, target = ''] = title.split(' ', 2);
  const path = target.split('?')[0]!.replace(/\{([^}]+)\}/g, ':$1');
  return `${method} ${path}`;
}

function partTools(): McpPartTool[] {
  return manifestTools().map((tool) => ({ ...tool, route: routeOfTitle(tool.title) }));
}

export const INTEGRATION_MCP_PART: McpPart = { path: MCP_PATH, server: MANIFEST_SERVER, tools: partTools(), toolErrorBody: integrationToolErrorBody };

export function registerMcpEndpoint(app: HttpServer, institution: { preValidation: preValidationHookHandler }): void {
  declareMcpPart(app, INTEGRATION_MCP_PART);
  app.post(
    MCP_PATH,
    { ...institution, config: { inputCheckedBy: 'mcp' }, schema: { summary: "MCP (JSON-RPC 2.0, Streamable HTTP, stateless): the manifest's tools, with the institution bearer key" } },
    async (request, reply) => answerMcpPart(INTEGRATION_MCP_PART, request, reply),
  );
}
