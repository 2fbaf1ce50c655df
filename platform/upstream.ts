import CachePolicy from 'http-cache-semantics';
import { LRUCache } from 'lru-cache';
import { InfrastructureError } from './errors.js';
import { withTimeout } from './timeout.js';

/**
 * How one subgraph calls another's public REST interface (DESIGN.md §3: the caller owns a small
 * typed client, e.g. subgraphs/payments/upstream/compliance.ts). The client sees only a transport,
 * so it behaves alike in both layouts:
 * 1. in-process (all-in-one server): the request is dispatched through the server's own Fastify
 *    `inject`, so it runs the very routes, hooks and error shapes an outside caller meets, with no
 *    socket;
 * 2. over HTTP (one subgraph per process): to the service's base URL in SERVICE_URLS.
 * Every call is bounded by UPSTREAM_TIMEOUT_MS; a transport failure (no answer, refused, timed
 * out) is an InfrastructureError naming the call, which the HTTP layer answers as 503.
 * In both layouts a GET answer the service declares fresh (Cache-Control: max-age) is reused for as
 * long as it says (withHttpCache).
 */

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  /** Absolute path on the service, query included: `/compliance/vop/verify`. */
  path: string;
  headers?: Readonly<Record<string, string>>;
  /** Sent as JSON. */
  body?: unknown;
}

export interface UpstreamResponse {
  status: number;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** The parsed JSON body; the raw text when the answer is not JSON. */
  body: unknown;
}

export type UpstreamTransport = (request: UpstreamRequest) => Promise<UpstreamResponse>;

/** The upstream services of this process, by name (a subgraph's name: `compliance`, `fees`). */
export interface Upstream {
  transport(service: string): UpstreamTransport;
}

/** What the in-process transport needs of the server: Fastify's `inject`, typed structurally. */
export interface Injector {
  inject(options: { method: 'GET' | 'POST'; url: string; headers: Record<string, string>; payload?: string }): PromiseLike<{
    statusCode: number;
    headers: Record<string, string | string[] | number | undefined>;
    body: string;
  }>;
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!contentType?.includes('json') || text.length === 0) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function lowerCaseHeaders(headers: Iterable<[string, unknown]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}

function requestHeaders(request: UpstreamRequest): Record<string, string> {
  return { accept: 'application/json', ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers };
}

const describe = (service: string, request: UpstreamRequest) => `${service} ${request.method} ${request.path.split('?')[0]}`;

/** In-process: through `app()`'s inject once the server exists (a subgraph is built before it, and calls at request time). */
export function injectTransport(service: string, app: () => Injector | undefined, timeoutMs: number): UpstreamTransport {
  return async (request) => {
    const server = app();
    if (!server) throw new InfrastructureError(`${describe(service, request)} (the in-process server is not mounted yet)`, new Error('not attached'));
    try {
      const response = await withTimeout(
        Promise.resolve(
          server.inject({ method: request.method, url: request.path, headers: requestHeaders(request), ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}) }),
        ),
        timeoutMs,
        describe(service, request),
      );
      const headers = lowerCaseHeaders(Object.entries(response.headers));
      return { status: response.statusCode, headers, body: parseBody(response.body, headers['content-type']) };
    } catch (error) {
      throw new InfrastructureError(describe(service, request), error);
    }
  };
}

/** Over HTTP to `baseUrl` (no trailing slash needed); redirects are not followed. */
export function httpTransport(service: string, baseUrl: string, timeoutMs: number, fetchImpl: typeof fetch = fetch): UpstreamTransport {
  const base = baseUrl.replace(/\/+$/, '');
  return async (request) => {
    try {
      const response = await fetchImpl(`${base}${request.path}`, {
        method: request.method,
        headers: requestHeaders(request),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      });
      const text = await response.text();
      const pairs: [string, string][] = [];
      response.headers.forEach((value, name) => pairs.push([name, value]));
      const headers = lowerCaseHeaders(pairs);
      return { status: response.status, headers, body: parseBody(text, headers['content-type']) };
    } catch (error) {
      throw new InfrastructureError(describe(service, request), error);
    }
  };
}

/** GET answers kept per service by withHttpCache (by path; the answers kept are small). */
const HTTP_CACHE_ENTRIES = 500;

/**
 * A private HTTP cache in front of `transport` (RFC 9111, as http-cache-semantics reads it): a GET
 * answered with explicit freshness (Cache-Control max-age, Expires) is answered again from memory
 * until it is stale, its Age header set; anything else (no freshness, no-store, another method, a
 * request with headers of its own, such as a credential) goes to the service. The service decides what may be kept:
 * the fees subgraph marks its FX rates, which change only with a new snapshot (decision 0044).
 */
export function withHttpCache(transport: UpstreamTransport): UpstreamTransport {
  const kept = new LRUCache<string, { policy: CachePolicy; response: UpstreamResponse }>({ max: HTTP_CACHE_ENTRIES });
  return async (request) => {
    // A request with headers of its own (a credential such as X-Internal-Key) is not cached: the
    // cache is keyed by path, and one caller's answer must never reach another without the key.
    if (request.method !== 'GET' || Object.keys(request.headers ?? {}).length > 0) return transport(request);
    const asked = { url: request.path, method: request.method, headers: requestHeaders(request) };
    const hit = kept.get(request.path);
    if (hit?.policy.satisfiesWithoutRevalidation(asked)) {
      return { ...hit.response, headers: lowerCaseHeaders(Object.entries(hit.policy.responseHeaders())) };
    }
    const response = await transport(request);
    const policy = new CachePolicy(asked, { status: response.status, headers: response.headers }, { shared: false });
    if (policy.storable() && policy.timeToLive() > 0) kept.set(request.path, { policy, response });
    else kept.delete(request.path);
    return response;
  };
}

export interface UpstreamOptions {
  /** SERVICE_URLS: services reached over HTTP; any other is reached in-process. */
  serviceUrls: Readonly<Record<string, string>>;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The process's upstream: HTTP for the services SERVICE_URLS names, in-process for the rest once `attach` has given it the server; both behind withHttpCache. */
export function createUpstream(options: UpstreamOptions): Upstream & { attach(app: Injector): void } {
  let attached: Injector | undefined;
  const transports = new Map<string, UpstreamTransport>();
  return {
    attach(app) {
      attached = app;
    },
    transport(service) {
      let transport = transports.get(service);
      if (!transport) {
        const url = Object.hasOwn(options.serviceUrls, service) ? options.serviceUrls[service] : undefined;
        transport = withHttpCache(url ? httpTransport(service, url, options.timeoutMs, options.fetch) : injectTransport(service, () => attached, options.timeoutMs));
        transports.set(service, transport);
      }
      return transport;
    },
  };
}

/** An upstream answered, but not with what the call needed (a non-2xx status, or a body of another shape). */
export class UpstreamAnswerError extends Error {
  override name = 'UpstreamAnswerError';
  constructor(
    readonly service: string,
    readonly status: number,
    message: string,
  ) {
    super(`${service} answered ${status}: ${message}`);
  }
}

/** The `error` text of an upstream's error body when it has one (at most 200 characters), else the status alone. */
export function upstreamErrorText(response: UpstreamResponse): string {
  const body = response.body;
  const text = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'error') ? (body as { error: unknown }).error : undefined;
  return typeof text === 'string' ? text.slice(0, 200) : `HTTP ${response.status}`;
}
