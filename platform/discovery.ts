import type { HttpServer } from './http.js';

/**
 * Discovery documents of a REST service (decision 0033), rendered from the service's own OpenAPI
 * document, which @fastify/swagger builds from the registered routes and their schemas: a route
 * added to the service appears in every document without touching this file.
 */

export interface DiscoveryInfo {
  /** The service's base path in this server, e.g. `/stability`. */
  prefix: string;
  nameForHuman: string;
  /** Letters, digits and underscores. */
  nameForModel: string;
  descriptionForHuman: string;
  descriptionForModel: string;
  /** Also serve <prefix>/llms-full.txt. */
  fullText: boolean;
}

interface OpenApiOperation {
  summary?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: { type?: string }; description?: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  description?: string;
  anyOf?: JsonSchema[];
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Where the process serves its one MCP server (gateway/mcp, decision 0080), named by every llms.txt. */
export const MCP_PATH = '/mcp';

/** Every documented operation, in path order: [METHOD, path, operation]. */
function operations(document: OpenApiDocument): Array<[string, string, OpenApiOperation]> {
  return Object.keys(document.paths)
    .sort()
    .flatMap((path) => METHODS.filter((method) => document.paths[path]![method]).map((method) => [method.toUpperCase(), path, document.paths[path]![method]!] as [string, string, OpenApiOperation]));
}

/** The OpenAI plugin manifest (ai-plugin.json, schema v1), pointing at the service's OpenAPI document. */
export function renderAiPlugin(info: DiscoveryInfo, origin: string) {
  return {
    schema_version: 'v1',
    name_for_human: info.nameForHuman,
    name_for_model: info.nameForModel,
    description_for_human: info.descriptionForHuman,
    description_for_model: info.descriptionForModel,
    auth: { type: 'none' },
    api: { type: 'openapi', url: `${origin}${info.prefix}/openapi.json`, is_user_authenticated: false },
    logo_url: null,
    contact_email: null,
    legal_info_url: null,
  };
}

/** llms.txt (llmstxt.org): H1, a blockquote summary, an H2 section listing each endpoint, the MCP server and the machine-readable documents. */
export function renderLlmsTxt(info: DiscoveryInfo, document: OpenApiDocument, origin: string): string {
  const lines = [`# ${info.nameForHuman}`, '', `> ${info.descriptionForHuman}`, '', info.descriptionForModel, '', '## Endpoints', ''];
  for (const [method, path, operation] of operations(document)) lines.push(`- [${method} ${path}](${origin}${info.prefix}${path}): ${operation.summary ?? ''}`.trimEnd());
  lines.push(
    '',
    '## MCP',
    '',
    `- [POST /mcp](${origin}${MCP_PATH}): one MCP server (Streamable HTTP) over the whole rail, every endpoint above a tool among those of the other services; its server card: ${origin}${MCP_PATH}/server-card; over stdio: \`npm run --silent mcp\``,
  );
  lines.push('', '## Machine-readable', '', `- [OpenAPI ${document.info.version}](${origin}${info.prefix}/openapi.json): every path with its parameters and response schemas`);
  if (info.fullText) lines.push(`- [Full text](${origin}${info.prefix}/llms-full.txt): every endpoint with its parameters and response fields`);
  return `${lines.join('\n')}\n`;
}

function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'object');
  return type === 'array' ? `array of ${typeOf(schema.items)}` : type;
}

function fieldLines(schema: JsonSchema | undefined, indent: string, depth: number): string[] {
  const target = schema?.type === 'array' ? schema.items : schema;
  if (!target?.properties || depth > 3) return [];
  return Object.entries(target.properties).flatMap(([name, field]) => [
    `${indent}- ${name} (${typeOf(field)})${field.description ? `: ${field.description}` : ''}`,
    ...fieldLines(field, `${indent}  `, depth + 1),
  ]);
}

/** llms-full.txt: every endpoint with its summary, parameters, body and 200 response fields. */
export function renderLlmsFullTxt(info: DiscoveryInfo, document: OpenApiDocument, origin: string): string {
  const lines = [`# ${info.nameForHuman} (version ${document.info.version})`, '', `> ${info.descriptionForHuman}`, '', `Base URL: ${origin}${info.prefix}`, ''];
  for (const [method, path, operation] of operations(document)) {
    lines.push(`## ${method} ${path}`, '', operation.summary ?? '', '');
    const parameters = operation.parameters ?? [];
    if (parameters.length > 0) {
      lines.push('Parameters:');
      for (const parameter of parameters)
        lines.push(`- ${parameter.name} (${parameter.in}, ${parameter.schema?.type ?? 'string'}${parameter.required ? ', required' : ''})${parameter.description ? `: ${parameter.description}` : ''}`);
      lines.push('');
    }
    const body = operation.requestBody?.content?.['application/json']?.schema;
    if (body) lines.push('JSON body:', ...fieldLines(body, '', 0), '');
    const ok = operation.responses?.['200']?.content?.['application/json']?.schema;
    if (ok) lines.push('Response 200 fields:', ...fieldLines(ok, '', 0), '');
    const errors = Object.keys(operation.responses ?? {}).filter((status) => status !== '200');
    if (errors.length > 0) lines.push(`Other statuses: ${errors.join(', ')}`, '');
  }
  return `${lines.join('\n')}\n`;
}

/** The origin clients reach this server at: PUBLIC_BASE_URL, else the request's own host. */
function originOf(publicBaseUrl: string | undefined, host: string | undefined, protocol: string): string {
  if (publicBaseUrl) return publicBaseUrl.replace(/\/$/, '');
  return `${protocol}://${host ?? 'localhost'}`;
}

/**
 * Serves <prefix>/.well-known/ai-plugin.json, <prefix>/llms.txt and, with fullText, <prefix>/llms-full.txt,
 * each rendered from the OpenAPI document of the same encapsulated context (registerOpenApi first).
 */
export function registerDiscoveryDocuments(app: HttpServer, info: DiscoveryInfo, publicBaseUrl: string | undefined): void {
  const document = () => app.swagger() as unknown as OpenApiDocument;
  const hidden = { schema: { hide: true } };
  app.get(`${info.prefix}/.well-known/ai-plugin.json`, hidden, async (request) => renderAiPlugin(info, originOf(publicBaseUrl, request.headers.host, request.protocol)));
  app.get(`${info.prefix}/llms.txt`, hidden, async (request, reply) =>
    reply.type('text/plain; charset=utf-8').send(renderLlmsTxt(info, document(), originOf(publicBaseUrl, request.headers.host, request.protocol))),
  );
  if (info.fullText) {
    app.get(`${info.prefix}/llms-full.txt`, hidden, async (request, reply) =>
      reply.type('text/plain; charset=utf-8').send(renderLlmsFullTxt(info, document(), originOf(publicBaseUrl, request.headers.host, request.protocol))),
    );
  }
}

function camelName(path: string): string {
  const words = path.split(/[/.-]/).filter((word) => word !== '' && !word.startsWith('{') && word !== 'json' && word !== 'txt');
  return words.map((word, index) => (index === 0 ? word : `${word[0]!.toUpperCase()}${word.slice(1)}`)).join('');
}

/**
 * The manifest's endpoint map from the OpenAPI document: a name for each operation ("feeSchedule":
 * "GET /fee-schedule"; a POST beside a GET of the same path is "<name>Post"), plus the discovery
 * documents, which are not operations of the API.
 */
export function endpointMap(document: OpenApiDocument, info: Pick<DiscoveryInfo, 'fullText'>): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [method, path] of operations(document)) {
    const name = camelName(path) || 'root';
    const hasGet = Boolean(document.paths[path]!.get);
    map[method !== 'GET' && hasGet ? `${name}${method[0]}${method.slice(1).toLowerCase()}` : name] = `${method} ${path}`;
  }
  map.openapi = 'GET /openapi.json';
  map.aiPlugin = 'GET /.well-known/ai-plugin.json';
  map.llms = 'GET /llms.txt';
  if (info.fullText) map.llmsFull = 'GET /llms-full.txt';
  return map;
}
