import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import type { HttpServer } from './http.js';
import type { ToolErrorBody } from './mcp-hygiene.js';

/**
 * The per-service MCP endpoints (/forecast/mcp, /integration/mcp) as parts of the one MCP server
 * of the process (gateway/mcp, decision 0080). A service declares its part: the tool names it
 * promised in its own documents, each the documented route it runs; the one server answers the
 * part's endpoint with those tools, called exactly as POST /mcp calls them (through the route).
 * 1. The service keeps its route (its OpenAPI entry, its key check before the body, its error
 *    shape), so the part stays where its specification put it.
 * 2. The service does not import the gateway (dependency rule): the one server hands its handler
 *    over here, keyed by the process's HTTP server, which every encapsulated context shares.
 */

export interface McpPartTool {
  name: string;
  /** The documented route the tool runs, `METHOD /route` as platform/capabilities.ts keys it. */
  route: string;
  description: string;
  /** The title and input schema the service publishes for the tool (the integration manifest); else derived from the route. */
  title?: string;
  inputSchema?: { type: 'object' } & Record<string, unknown>;
}

export interface McpPart {
  /** Where the part answers, e.g. `/forecast/mcp`. */
  path: string;
  server: { name: string; version: string };
  tools: readonly McpPartTool[];
  /** The service's error body for arguments refused before any route runs. */
  toolErrorBody: ToolErrorBody;
}

export interface McpPartEndpointOptions {
  /** Host headers accepted (DNS-rebinding protection); none given, any host. */
  allowedHosts?: readonly string[];
}

export type McpPartServer = (part: McpPart, request: FastifyRequest, reply: FastifyReply, options: McpPartEndpointOptions) => Promise<void>;

interface Registry {
  parts: McpPart[];
  server?: McpPartServer;
}

const registries = new WeakMap<object, Registry>();

function registryOf(app: Pick<HttpServer, 'server'>): Registry {
  let registry = registries.get(app.server);
  if (!registry) {
    registry = { parts: [] };
    registries.set(app.server, registry);
  }
  return registry;
}

/** A service declares its part (from its routes plugin, beside the part's route). */
export function declareMcpPart(app: HttpServer, part: McpPart): void {
  registryOf(app).parts.push(part);
}

/** The parts the services of this process declared. */
export function declaredMcpParts(app: HttpServer): readonly McpPart[] {
  return registryOf(app).parts;
}

/** The one MCP server of the process takes over the parts' endpoints. */
export function serveMcpParts(app: HttpServer, server: McpPartServer): void {
  registryOf(app).server = server;
}

/** Answers a part's endpoint with the one server; a process that mounted none answers 503. */
export async function answerMcpPart(part: McpPart, request: FastifyRequest, reply: FastifyReply, options: McpPartEndpointOptions = {}): Promise<void> {
  const server = registries.get(request.server.server)?.server;
  if (!server) throw new AppError('GEN_ERR_UNAVAILABLE', { message: `The MCP server behind ${part.path} is not mounted in this process.`, retryAfterSeconds: 60 });
  await server(part, request, reply, options);
}

/** Host names an MCP endpoint answers to: loopback always, plus the listening and public hosts. */
export function mcpHostnames(listeningHost: string, publicBaseUrl: string | undefined): string[] {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (!['0.0.0.0', '::', ''].includes(listeningHost)) names.add(listeningHost.includes(':') ? `[${listeningHost}]` : listeningHost);
  if (publicBaseUrl) names.add(new URL(publicBaseUrl).host);
  return [...names];
}

/** The allowed Host values for a request's port: each name bare and with the port listened on. */
export function allowedHostsFor(hostnames: readonly string[], request: FastifyRequest): string[] {
  const port = (request.raw.socket.localPort ?? 0).toString();
  return hostnames.flatMap((name) => (name.includes(':') && !name.startsWith('[') ? [name] : [name, `${name}:${port}`]));
}
