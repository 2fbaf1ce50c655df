import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { HttpMethod } from '../../platform/capabilities.js';
import { AppError } from '../../platform/errors.js';
import type { HttpServer } from '../../platform/http.js';
import type { JsonSchema } from './json-schema.js';
import { anyStructuredError, type ToolCall, toolResult } from './tool.js';

/**
 * A tool call runs its route through `app.inject` (decision 0080): the same validation, key
 * checks, x402 payment, rate limits, authority and error bodies as the REST request it stands
 * for, because it is that request.
 */

export interface RouteBinding {
  method: HttpMethod;
  route: string;
  pathParams: readonly string[];
  queryParams: ReadonlyMap<string, JsonSchema>;
  idempotencyArgument?: string | undefined;
  /** none: no body; merged: the other arguments are the body's properties; whole: the arguments are the body; nested: the argument `body`. */
  body: 'none' | 'merged' | 'whole' | 'nested';
}

export interface RouteRequest {
  method: HttpMethod;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

const PAYMENT_RESPONSE_META = 'x402/payment-response';

/** Which error statuses a tool may answer as structured content (RailTool.structuredError). */
export type StructuredError = (status: number) => boolean;

/** A tool's refusal where no route answered, in the error body of the service at `url`. */
export function toolRefusal(app: HttpServer, url: string, error: AppError, structuredError: StructuredError = anyStructuredError): CallToolResult {
  const { status, body } = app.errorShapes.answerFor(url, error);
  return toolResult(body, { isError: true, structured: structuredError(status) });
}

/** A refusal of the arguments before any route ran, in the error body of the route's service. */
export function refusedArguments(app: HttpServer, url: string, message: string, structuredError: StructuredError = anyStructuredError): CallToolResult {
  return toolRefusal(app, url, new AppError('GEN_ERR_BAD_REQUEST', { message: `Invalid arguments: ${message}` }), structuredError);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A path or query argument as text, when it is of the JSON type its parameter states; else why not. */
function parameterText(name: string, value: unknown, schema: JsonSchema | undefined): { text: string } | { problem: string } {
  const declared = schema?.type;
  const types = Array.isArray(declared) ? (declared as string[]) : typeof declared === 'string' ? [declared] : ['string', 'number', 'boolean'];
  const actual = typeName(value);
  const admitted = types.includes(actual) || (actual === 'number' && types.includes('integer') && Number.isInteger(value));
  if (!admitted) return { problem: `${name}: expected ${types.join(' or ')}, received ${actual}` };
  return { text: String(value) };
}

/** The request a tool call makes of its route, or the problem with its arguments. */
export function routeRequestOf(binding: RouteBinding, args: Record<string, unknown>): RouteRequest | { problem: string } {
  const rest: Record<string, unknown> = { ...args };
  let url = binding.route;
  for (const name of binding.pathParams) {
    const value = rest[name];
    delete rest[name];
    if (value === undefined) return { problem: `${name}: required` };
    const text = parameterText(name, value, { type: 'string' });
    if ('problem' in text) return text;
    url = url.replace(`:${name}`, encodeURIComponent(text.text));
  }
  const query = new URLSearchParams();
  for (const [name, schema] of binding.queryParams) {
    const value = rest[name];
    delete rest[name];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) && schema.type === 'array' ? value : [value]) {
      const text = parameterText(name, item, schema.type === 'array' ? (schema.items as JsonSchema | undefined) : schema);
      if ('problem' in text) return text;
      query.append(name, text.text);
    }
  }
  const headers: Record<string, string> = {};
  if (binding.idempotencyArgument) {
    const key = rest[binding.idempotencyArgument];
    delete rest[binding.idempotencyArgument];
    if (key !== undefined && typeof key !== 'string') return { problem: `${binding.idempotencyArgument}: expected string, received ${typeName(key)}` };
    if (key !== undefined) headers['idempotency-key'] = key;
  }
  const search = query.toString();
  const request: RouteRequest = { method: binding.method, url: search ? `${url}?${search}` : url, headers };
  switch (binding.body) {
    case 'none': {
      const unknown = Object.keys(rest);
      return unknown.length > 0 ? { problem: `${unknown[0]}: not an argument of this tool` } : request;
    }
    case 'merged':
      return { ...request, body: rest };
    case 'whole':
      return { ...request, body: args };
    case 'nested': {
      const { body, ...others } = rest;
      const unknown = Object.keys(others);
      if (unknown.length > 0) return { problem: `${unknown[0]}: not an argument of this tool` };
      return body === undefined ? request : { ...request, body };
    }
  }
}

/** X-PAYMENT-RESPONSE (base64 JSON of the settlement) as the object x402's MCP transport puts in `_meta`. */
function paymentResponseOf(header: string | string[] | number | undefined): unknown {
  if (typeof header !== 'string') return undefined;
  try {
    return JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as unknown;
  } catch {
    return header;
  }
}

export interface RouteAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | number | undefined>;
}

/** The request sent to its route as the caller: their credentials, this call's payment. */
export async function injectRoute(request: RouteRequest, call: ToolCall): Promise<RouteAnswer> {
  const hasBody = request.body !== undefined;
  const response = await call.app.inject({
    method: request.method,
    url: request.url,
    headers: {
      ...call.headers,
      ...request.headers,
      ...(call.payment ? { 'x-payment': call.payment } : {}),
      ...(hasBody ? { 'content-type': 'application/json' } : {}),
    },
    ...(hasBody ? { payload: JSON.stringify(request.body) } : {}),
  });
  const isJson = String(response.headers['content-type'] ?? '').includes('json');
  return { status: response.statusCode, body: isJson && response.body !== '' ? response.json() : response.body, headers: response.headers };
}

/** A route's answer as a tool result (see runRouteRequest). */
export function resultOfAnswer(answer: RouteAnswer, structuredError: StructuredError = anyStructuredError): CallToolResult {
  const paymentResponse = paymentResponseOf(answer.headers['x-payment-response']);
  const meta = paymentResponse === undefined ? undefined : { [PAYMENT_RESPONSE_META]: paymentResponse };
  const isError = answer.status >= 400;
  return toolResult(answer.body, { isError, meta, structured: !isError || structuredError(answer.status) });
}

/**
 * Runs a request on a route as the caller and answers it as a tool result:
 * 1. 2xx: the body (structured content when an object) and its JSON text;
 * 2. any other status: isError with the route's own error body, so bad input names its field,
 *    as JSON text, and as structured content where the tool's outputSchema admits it; a 402 is
 *    x402's PaymentRequired body as REST answers it (x402 MCP transport: structured content and
 *    its JSON in content[0].text; the paid routes document it, so their outputSchema admits it);
 * 3. an X-PAYMENT-RESPONSE header comes back as `_meta["x402/payment-response"]`.
 */
export async function runRouteRequest(request: RouteRequest, call: ToolCall, structuredError: StructuredError = anyStructuredError): Promise<CallToolResult> {
  return resultOfAnswer(await injectRoute(request, call), structuredError);
}

export async function callRoute(binding: RouteBinding, args: Record<string, unknown>, call: ToolCall, structuredError: StructuredError): Promise<CallToolResult> {
  const request = routeRequestOf(binding, args);
  if ('problem' in request) return refusedArguments(call.app, binding.route, request.problem, structuredError);
  return runRouteRequest(request, call, structuredError);
}
