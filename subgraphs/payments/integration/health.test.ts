import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { InfrastructureError } from '../../../platform/errors.js';
import type { UpstreamTransport } from '../../../platform/upstream.js';
import { startTestServer, type TestServer } from '../../../test/helpers.js';
import { COMPLIANCE_PROBE_PATH, createIntegrationHealth, STABILITY_PROBE_PATH } from './health.js';

// GET /integration/health: the all-in-one server healthy; a server built with only payments whose
// SERVICE_URLS point at a closed port shows both oracles down; the checks' reasons as a table.

const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** A TCP port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('GET /integration/health', () => {
  /** The institution bearer key the path takes (decision 0056). */
  const bearer = async (server: TestServer) => ({ authorization: `Bearer ${(await server.platform!.access.keys.create('bearer', 'health probe', 1000)).key}` });

  it('all-in-one: every component ok, 200, with the bearer key', async () => {
    const server = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'] });
    servers.push(server);
    const response = await server.app.inject({ method: 'GET', url: '/integration/health', headers: await bearer(server) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', complianceOracle: 'ok', stabilityOracle: 'ok', db: 'ok' });
  }, 120_000);

  it('only payments, SERVICE_URLS at a closed port: both oracles "connection refused", db ok, status degraded, 503', async () => {
    const port = await closedPort();
    const server = await startTestServer({
      subgraphs: ['payments'],
      environment: { SERVICE_URLS: `compliance=http://127.0.0.1:${port},fees=http://127.0.0.1:${port}` },
    });
    servers.push(server);
    const response = await server.app.inject({ method: 'GET', url: '/integration/health', headers: await bearer(server) });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'degraded', complianceOracle: 'connection refused', stabilityOracle: 'connection refused', db: 'ok' });
  }, 120_000);
});

describe('createIntegrationHealth', () => {
  const ok: UpstreamTransport = async () => ({ status: 200, headers: {}, body: {} });
  const answering =
    (status: number): UpstreamTransport =>
    async () => ({ status, headers: {}, body: {} });
  const hanging: UpstreamTransport = () => new Promise(() => {});
  const refused: UpstreamTransport = async (request) => {
    throw new InfrastructureError(`compliance GET ${request.path}`, Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }));
  };
  const broken: UpstreamTransport = async () => {
    throw new InfrastructureError('fees GET /x', new Error('socket hang up'));
  };
  const up = async () => {};
  const down = async () => {
    throw new InfrastructureError('database ping', new Error('password authentication failed for user "secret-user"'));
  };

  it.each([
    ['all ok', ok, ok, up, { status: 'ok', complianceOracle: 'ok', stabilityOracle: 'ok', db: 'ok' }],
    ['compliance answers 503', answering(503), ok, up, { status: 'degraded', complianceOracle: 'answered 503', stabilityOracle: 'ok', db: 'ok' }],
    ['fees refused', ok, refused, up, { status: 'degraded', complianceOracle: 'ok', stabilityOracle: 'connection refused', db: 'ok' }],
    ['compliance hangs (cut at the timeout)', hanging, ok, up, { status: 'degraded', complianceOracle: 'no answer within 50 ms', stabilityOracle: 'ok', db: 'ok' }],
    ['an unnamed failure', ok, broken, up, { status: 'degraded', complianceOracle: 'ok', stabilityOracle: 'unreachable', db: 'ok' }],
    ["database down: the reason never carries the driver's text", ok, ok, down, { status: 'degraded', complianceOracle: 'ok', stabilityOracle: 'ok', db: 'unreachable' }],
  ] as const)('%s', async (_name, compliance, stability, pingDatabase, expected) => {
    const health = createIntegrationHealth({ compliance, stability, pingDatabase, timeoutMs: 50 });
    expect(await health.check()).toEqual(expected);
  });

  it('probes each oracle on its free read-only path with GET', async () => {
    const seen: string[] = [];
    const recording: UpstreamTransport = async (request) => {
      seen.push(`${request.method} ${request.path}`);
      return { status: 200, headers: {}, body: {} };
    };
    await createIntegrationHealth({ compliance: recording, stability: recording, pingDatabase: up }).check();
    expect(seen.sort()).toEqual([`GET ${COMPLIANCE_PROBE_PATH}`, `GET ${STABILITY_PROBE_PATH}`].sort());
  });
});
