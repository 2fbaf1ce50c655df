import { like } from 'drizzle-orm';
import { intelligenceReports } from '../../../drizzle/schema.js';
import type { UpstreamTransport } from '../../../platform/upstream.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';
import { signalEndpoints } from '../endpoints.js';
import type { LedgerStore } from '../predictive/ledger-store.js';
import { createComplianceClient } from '../upstream/compliance.js';
import { catalogEntry } from './catalog.js';
import type { AnySignalEndpoint } from './signal-endpoint.js';

/**
 * A server with the intelligence subgraph (and the subgraphs named) and an API key with a generous
 * limit: what a signal test calls. It runs on the worker's shared database, whose kept signal
 * answers are cleared first: answers are cached in the database, and one kept by another test's
 * server (another clock, live feeds) would answer for this one. A worker runs its files one at a time.
 */
export async function startSignalServer(
  options: { rateLimit?: number; subgraphs?: Array<'intelligence' | 'compliance' | 'payments' | 'fees' | 'forecast'> } = {},
): Promise<{ server: TestServer; key: string }> {
  const server = await startTestServer({ subgraphs: options.subgraphs ?? ['intelligence'] });
  await clearKeptSignals(server);
  const { key } = await server.platform!.access.keys.create('api', 'signal tests', options.rateLimit ?? 10_000);
  return { server, key };
}

/** GET a signal path with the key: status, parsed body and headers. */
export async function getSignal(server: TestServer, path: string, key?: string) {
  const response = await server.app.inject({ method: 'GET', url: path, headers: key ? { 'x-api-key': key } : {} });
  return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
}

/** POST a JSON body to a signal path (the simulations) with the key: status, parsed body and headers. */
export async function postSignal(server: TestServer, path: string, body: unknown, key?: string) {
  const response = await server.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, payload: JSON.stringify(body) });
  return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
}

/** Calls an endpoint at its catalog method: a GET at `url`, or a POST of its example body. */
export async function callSignal(server: TestServer, endpoint: AnySignalEndpoint, url: string, key?: string) {
  return catalogEntry(endpoint.id, endpoint.summary).method === 'POST' ? postSignal(server, url, endpoint.example, key) : getSignal(server, url, key);
}

/** The GraphQL arguments of an endpoint's example (`(origin: "geo.conflict", ...)`), empty when it has none. */
export function exampleGraphQLArguments(endpoint: AnySignalEndpoint): string {
  const example = endpoint.example;
  return example
    ? `(${Object.entries(example)
        .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
        .join(', ')})`
    : '';
}

/** A GraphQL query with the key, to the intelligence subgraph (or `path`): the parsed body. */
export async function querySignal(server: TestServer, query: string, key?: string, path = '/subgraphs/intelligence/graphql') {
  const response = await server.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) }, payload: { query } });
  return response.json() as { data?: Record<string, any>; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
}

/** Every endpoint as listed (ids, fields, schemas), its upstream clients never called: for tests that walk the catalogue. */
export function listedSignalEndpoints(): AnySignalEndpoint[] {
  const unused: UpstreamTransport = async () => {
    throw new Error('a listed endpoint is not computed');
  };
  const ledger = new Proxy({} as LedgerStore, {
    get: () => () => Promise.reject(new Error('a listed endpoint is not computed')),
  });
  return signalEndpoints({ compliance: createComplianceClient({ transport: unused, internalKey: undefined }), ledger });
}

/** Removes every kept signal answer of the server's database (reports stay). */
export async function clearKeptSignals(server: TestServer): Promise<void> {
  await server.platform!.database.db.delete(intelligenceReports).where(like(intelligenceReports.cacheKey, 'signal:%'));
}
