import type { DocumentedOperation, HttpMethod, OpenApiOperation } from '../../platform/capabilities.js';
import { callRoute, type RouteBinding } from './call-route.js';
import { type JsonSchema, jsonSchemaOf, requiresProperty } from './json-schema.js';
import type { RailTool } from './tool.js';
import { routeToolName } from './tool-names.js';

/**
 * One tool per documented capability (decision 0080), derived from the OpenAPI operation, itself
 * generated from the zod schemas the route validates with: one source for REST, GraphQL and MCP.
 * 1. inputSchema: the path and query parameters and the JSON body's properties in one object. A
 *    body that is not a plain object (a union), or whose names collide with a parameter, is the
 *    argument `body`, unless there are no parameters: then the arguments are the body.
 * 2. An `Idempotency-Key` header parameter is the argument `idempotencyKey`; the other header
 *    parameters are credentials, sent by the caller's transport (HTTP headers, or the stdio
 *    server's environment), never arguments a model would see.
 * 3. outputSchema: the first 2xx JSON response schema, when it is an object, with the documented
 *    error bodies beside it (outputOf).
 */

const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

function jsonBodySchema(operation: OpenApiOperation): JsonSchema | undefined {
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  return schema ? jsonSchemaOf(schema) : undefined;
}

function responseSchema(operation: OpenApiOperation, status: string): JsonSchema | undefined {
  const schema = operation.responses?.[status]?.content?.['application/json']?.schema;
  return schema ? jsonSchemaOf(schema) : undefined;
}

interface Output {
  outputSchema?: { type: 'object' } & JsonSchema;
  structuredError: (status: number) => boolean;
}

/**
 * The outputSchema: the first 2xx JSON response when it is an object, and beside it every error
 * response the operation documents (its 400, 401, 402 ... bodies), since MCP clients validate any
 * structured content, an error's too, against the outputSchema. An error of a status the route
 * does not document is then text only.
 */
function outputOf(operation: OpenApiOperation): Output {
  const statuses = Object.keys(operation.responses ?? {});
  const successStatus = statuses.find((code) => /^2\d\d$/.test(code));
  const success = successStatus ? responseSchema(operation, successStatus) : undefined;
  if (success?.type !== 'object') return { structuredError: () => true };
  const errors = new Map<number, JsonSchema>();
  for (const status of statuses.filter((code) => /^[45]\d\d$/.test(code))) {
    const schema = responseSchema(operation, status);
    if (schema?.type === 'object') errors.set(Number(status), schema);
  }
  const branches = [...new Map([success, ...errors.values()].map((schema) => [JSON.stringify(schema), schema])).values()];
  return {
    outputSchema: branches.length === 1 ? (success as { type: 'object' } & JsonSchema) : { type: 'object', anyOf: branches },
    structuredError: (status) => errors.has(status),
  };
}

interface Derived {
  binding: RouteBinding;
  inputSchema: { type: 'object' } & JsonSchema;
}

function deriveInput(operation: DocumentedOperation): Derived {
  const parameters = operation.operation.parameters ?? [];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams = new Map<string, JsonSchema>();
  for (const parameter of parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const schema = { ...jsonSchemaOf(parameter.schema), ...(parameter.description ? { description: parameter.description } : {}) };
    properties[parameter.name] = schema;
    if (parameter.in === 'path') pathParams.push(parameter.name);
    else queryParams.set(parameter.name, schema);
    if (parameter.in === 'path' || parameter.required) required.push(parameter.name);
  }
  const idempotencyHeader = parameters.find((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key');
  if (idempotencyHeader) {
    properties[IDEMPOTENCY_ARGUMENT] = { type: 'string', ...(idempotencyHeader.description ? { description: `Idempotency-Key: ${idempotencyHeader.description}` } : {}) };
    if (idempotencyHeader.required) required.push(IDEMPOTENCY_ARGUMENT);
  }
  const body = jsonBodySchema(operation.operation);
  const binding = { method: operation.method, route: operation.route, pathParams, queryParams, idempotencyArgument: idempotencyHeader ? IDEMPOTENCY_ARGUMENT : undefined };
  const hasParameters = Object.keys(properties).length > 0;
  if (!body) return { binding: { ...binding, body: 'none' }, inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false } };
  const bodyProperties =
    body.type === 'object' && typeof body.properties === 'object' && body.properties !== null && !body.anyOf && !body.oneOf ? (body.properties as Record<string, JsonSchema>) : undefined;
  if (!hasParameters && (bodyProperties || body.anyOf || body.oneOf)) return { binding: { ...binding, body: 'whole' }, inputSchema: { type: 'object', ...body } };
  if (bodyProperties && !Object.keys(bodyProperties).some((name) => name in properties)) {
    const bodyRequired = Array.isArray(body.required) ? (body.required as string[]) : [];
    const { properties: _p, required: _r, type: _t, ...rest } = body;
    return {
      binding: { ...binding, body: 'merged' },
      inputSchema: { ...rest, type: 'object', properties: { ...properties, ...bodyProperties }, required: [...required, ...bodyRequired] },
    };
  }
  const requestRequired = operation.operation.requestBody?.required ?? false;
  return {
    binding: { ...binding, body: 'nested' },
    inputSchema: { type: 'object', properties: { ...properties, body }, required: [...required, ...(requestRequired ? ['body'] : [])], additionalProperties: false },
  };
}

/**
 * GET reads; DELETE destroys; GET, PUT and DELETE are idempotent, and so is a POST that carries
 * an idempotency key it must be given: a required Idempotency-Key header or a required
 * `tmsReference` in its body (the integration API answers a repeated reference with the stored
 * result). A POST whose key is optional (POST /agent/settle) is not: called without one, it acts twice.
 */
function annotationsOf(operation: DocumentedOperation, title: string) {
  const { method } = operation;
  const idempotencyHeader = operation.operation.parameters?.find((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key');
  const keyed = idempotencyHeader?.required === true || requiresProperty(jsonBodySchema(operation.operation), 'tmsReference');
  const idempotent = (['GET', 'PUT', 'DELETE'] as HttpMethod[]).includes(method) || keyed;
  return { title, readOnlyHint: method === 'GET', destructiveHint: method === 'DELETE', idempotentHint: idempotent, openWorldHint: false };
}

export interface RouteToolOverrides {
  name?: string;
  description?: string;
  title?: string;
  inputSchema?: { type: 'object' } & JsonSchema;
}

/** The tool of one documented operation (with a part's published name, title and input schema when given). */
export function routeTool(operation: DocumentedOperation, all: readonly DocumentedOperation[], overrides: RouteToolOverrides = {}): RailTool {
  const { binding, inputSchema } = deriveInput(operation);
  const { outputSchema, structuredError } = outputOf(operation.operation);
  const title = overrides.title ?? operation.key;
  const summary = operation.operation.summary ?? operation.operation.description ?? operation.key;
  return {
    name: overrides.name ?? routeToolName(operation, all),
    title,
    description: overrides.description ?? `${summary} (${operation.key})`,
    inputSchema: overrides.inputSchema ?? inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: annotationsOf(operation, title),
    errorUrl: operation.route,
    structuredError,
    run: (args, call) => callRoute(binding, args, call, structuredError),
  };
}

/** Every documented capability as a tool, each name once. */
export function deriveRouteTools(capabilities: readonly DocumentedOperation[]): RailTool[] {
  const tools = capabilities.map((operation) => routeTool(operation, capabilities));
  const seen = new Map<string, string>();
  for (const [index, tool] of tools.entries()) {
    const other = seen.get(tool.name);
    if (other) throw new Error(`two routes would be the tool ${tool.name}: ${other} and ${capabilities[index]!.key}`);
    seen.set(tool.name, capabilities[index]!.key);
  }
  return tools;
}
