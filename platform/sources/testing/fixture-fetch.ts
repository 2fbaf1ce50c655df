// Test-only stand-ins for the network: a fetch serving recorded fixtures and one that never answers.

import { readFileSync } from 'node:fs';
import { SourceUnavailableError } from '../errors.js';
import { DEFAULT_FEED_BASE_URLS, type FeedBaseUrls, type FeedOptions } from '../options.js';

export interface FixtureRoute {
  /** Which request this route answers. */
  matches: (url: URL) => boolean;
  status?: number;
  /** Text, or bytes for a binary body (a workbook). */
  body: string | Uint8Array;
}

export interface FixtureFetch {
  fetch: typeof globalThis.fetch;
  /** Every URL asked for, in order. */
  requests: URL[];
}

/** A fixture file of a publisher (platform/sources/<publisher>/fixtures), as text: `readFixture('gdacs', 'search-orange-red.json')`. */
export function readFixture(source: string, file: string): string {
  return readFileSync(new URL(`../${source}/fixtures/${file}`, import.meta.url), 'utf8');
}

/** Serves the first matching route; an unmatched request gets 404 so a wrong URL fails the test. */
export function fixtureFetch(routes: readonly FixtureRoute[]): FixtureFetch {
  const requests: URL[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push(url);
    const route = routes.find((r) => r.matches(url));
    if (route === undefined) return new Response('no fixture for this request', { status: 404 });
    const status = route.status ?? 200;
    // The Response constructor refuses a body, even an empty one, with 204.
    const body = typeof route.body === 'string' ? route.body : new Uint8Array(route.body);
    return new Response(status === 204 ? null : body, { status });
  };
  return { fetch, requests };
}

/** Never answers; rejects with the signal's reason once the caller's timeout aborts it. */
export const hangingFetch: typeof globalThis.fetch = (_input, init) =>
  new Promise<Response>((_resolve, reject) => {
    const signal = init?.signal;
    if (signal === undefined || signal === null) return;
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/** Never settles, even when aborted: a request that reaches it would hang the test. */
export const unansweringFetch: typeof globalThis.fetch = () => new Promise<Response>(() => undefined);

/** Options of every adapter: the publishers' public base URLs, a 1 s budget and the given fetch. */
export function testOptions(fetch: typeof globalThis.fetch, overrides: Partial<FeedOptions> = {}): FeedOptions & { baseUrls: FeedBaseUrls } {
  return { timeoutMs: 1_000, baseUrls: DEFAULT_FEED_BASE_URLS, fetch, ...overrides };
}

export function pathIs(host: string, pathname: string): (url: URL) => boolean {
  return (url) => url.host === host && url.pathname === pathname;
}

/** The SourceUnavailableError a promise rejects with; anything else fails the test. */
export async function failureOf(promise: Promise<unknown>): Promise<SourceUnavailableError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SourceUnavailableError) return error;
    throw error;
  }
  throw new Error('expected a SourceUnavailableError, got a result');
}

/** The value, or a test failure when it is missing (for indexed access in assertions). */
export function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value, got undefined');
  return value;
}
