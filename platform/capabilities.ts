import type { HttpServer } from './http.js';

/**
 * The documented capabilities of a server, read from the OpenAPI documents its services publish
 * (each built by @fastify/swagger from the zod schemas that validate the routes). One source for
 * every face of a capability: the MCP tools are derived from it, and test/capabilities.test.ts
 * checks that each one has a GraphQL field (`@rest` in the subgraph SDL) and a tool.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Record<string, unknown>;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> }>;
}

interface PublishedDocument {
  servers?: Array<{ url: string }>;
  paths: Record<string, Partial<Record<Lowercase<HttpMethod>, OpenApiOperation>>>;
}

/**
 * What an operation is for. Only `capability` is a thing a caller asks the rail to do or tell;
 * the others describe or watch the service (liveness, discovery documents, an HTML widget, a
 * protocol endpoint such as MCP itself).
 */
export type OperationKind = 'capability' | 'health' | 'discovery' | 'widget' | 'protocol';

export interface DocumentedOperation {
  method: HttpMethod;
  /** The route as this server mounts it, Fastify style: `/compliance/agent/:id`. */
  route: string;
  /** `METHOD route`, the form `@rest(routes: [...])` uses. */
  key: string;
  /** The OpenAPI document that describes it, e.g. `/compliance/openapi.json`. */
  documentUrl: string;
  operation: OpenApiOperation;
  kind: OperationKind;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The kind of an operation, from its route alone. */
export function operationKind(route: string): OperationKind {
  if (/(^|\/)health$/.test(route)) return 'health';
  if (/\/widget\//.test(route)) return 'widget';
  if (/\/mcp$/.test(route)) return 'protocol';
  if (/\/\.well-known\/|(^|\/)did\.json$|openapi\.json$|llms(-full)?\.txt$/.test(route)) return 'discovery';
  return 'capability';
}

/** `/agent/{id}/verify` under `/compliance` -> `/compliance/agent/:id/verify`. */
function mountedRoute(serverUrl: string, path: string): string {
  const base = serverUrl === '/' ? '' : serverUrl.replace(/\/$/, '');
  return `${base}${path}`.replace(/\{([^}]+)\}/g, ':$1');
}

/** The URLs of the OpenAPI documents this server publishes. */
export function openApiDocumentUrls(app: HttpServer): string[] {
  return app.openApiDocumentUrls;
}

/** Every operation of every OpenAPI document the server publishes, in document then path order. */
export async function documentedOperations(app: HttpServer): Promise<DocumentedOperation[]> {
  const operations: DocumentedOperation[] = [];
  for (const documentUrl of openApiDocumentUrls(app)) {
    const response = await app.inject({ method: 'GET', url: documentUrl });
    if (response.statusCode !== 200) throw new Error(`${documentUrl} answered ${response.statusCode}`);
    const document = response.json<PublishedDocument>();
    const serverUrl = document.servers?.[0]?.url ?? '/';
    for (const path of Object.keys(document.paths).sort()) {
      for (const method of METHODS) {
        const operation = document.paths[path]?.[method.toLowerCase() as Lowercase<HttpMethod>];
        if (!operation) continue;
        const route = mountedRoute(serverUrl, path);
        operations.push({ method, route, key: `${method} ${route}`, documentUrl, operation, kind: operationKind(route) });
      }
    }
  }
  return operations;
}

/** The operations a caller uses the rail for (kind `capability`), each once. */
export async function documentedCapabilities(app: HttpServer): Promise<DocumentedOperation[]> {
  const seen = new Set<string>();
  return (await documentedOperations(app)).filter((operation) => {
    if (operation.kind !== 'capability' || seen.has(operation.key)) return false;
    seen.add(operation.key);
    return true;
  });
}
