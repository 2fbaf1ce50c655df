// The network step shared by every fetch.ts: one GET under a timeout, errors typed by what failed.

import { type FeedId, SourceUnavailableError } from './errors.js';
import type { FeedOptions } from './options.js';

export type HttpOptions = FeedOptions;

export interface RawResponse {
  status: number;
  text: string;
}

/**
 * Host and path only: queries can hold an API key (FRED), and error messages end up in logs.
 */
export function describeEndpoint(url: URL): string {
  return `${url.host}${url.pathname}`;
}

/** A configured base URL fit to show in provenance: its query (which may hold a key) removed. */
export function publicUrl(base: string, path = ''): string {
  const url = new URL(base);
  return `${url.origin}${url.pathname.replace(/\/$/, '')}${path}`;
}

/** Builds a URL from a configured base (which may already carry a query) and parameters. */
export function buildUrl(base: string, path: string, params: Record<string, string>): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/$/, '')}${path}`;
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url;
}

export async function getText(source: FeedId, url: URL, options: HttpOptions, accept = 'application/json'): Promise<RawResponse> {
  return readBody(source, url, options, accept, async (response) => ({ status: response.status, text: await response.text() }));
}

/** One GET whose body is binary (a workbook, an archive): the bytes as sent. */
export async function getBytes(source: FeedId, url: URL, options: HttpOptions, accept = 'application/octet-stream'): Promise<Uint8Array> {
  return readBody(source, url, options, accept, async (response) => new Uint8Array(await response.arrayBuffer()));
}

async function readBody<Body>(source: FeedId, url: URL, options: HttpOptions, accept: string, read: (response: Response) => Promise<Body>): Promise<Body> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const headers: Record<string, string> = options.userAgent === undefined ? { accept } : { accept, 'user-agent': options.userAgent };
  let response: Response;
  try {
    response = await options.fetch(url, { signal, headers });
  } catch (cause) {
    throw transportFailure(source, url, options, signal, cause);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const message = `HTTP ${response.status} from ${describeEndpoint(url)}`;
    throw new SourceUnavailableError(source, 'http-status', message, { status: response.status });
  }
  try {
    return await read(response);
  } catch (cause) {
    throw transportFailure(source, url, options, signal, cause);
  }
}

export async function getJson(source: FeedId, url: URL, options: HttpOptions): Promise<unknown> {
  const { text } = await getText(source, url, options);
  return parseJsonBody(source, url, text);
}

export function parseJsonBody(source: FeedId, url: URL, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    const message = `unparseable JSON from ${describeEndpoint(url)}`;
    throw new SourceUnavailableError(source, 'malformed-body', message, { cause });
  }
}

function transportFailure(source: FeedId, url: URL, options: HttpOptions, signal: AbortSignal, cause: unknown): SourceUnavailableError {
  // Our own signal being aborted is the only reliable timeout test: fetch implementations
  // reject with different error types (DOMException TimeoutError, AbortError, TypeError).
  if (signal.aborted) {
    const message = `no answer within ${options.timeoutMs} ms from ${describeEndpoint(url)}`;
    return new SourceUnavailableError(source, 'timeout', message, { cause });
  }
  return new SourceUnavailableError(source, 'network', `request to ${describeEndpoint(url)} failed`, { cause });
}
