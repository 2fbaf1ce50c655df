import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBalancer, routeFor, upstreamUrl } from './balancer.js';
import { contractsFromBanner, restPrefixesFromBanner } from './cluster.js';
import { clusterHealth } from './health.js';
import type { ManagedProcess, ProcessKind, ProcessStatus } from './supervisor.js';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

async function upstream(name: string, handler?: Handler): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += String(chunk)));
    request.on('end', () => {
      if (handler) return handler(request, response, body);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ served: name, method: request.method, url: request.url, body, contentType: request.headers['content-type'] ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** GET `target` as written on the request line (fetch would resolve dot segments and refuse absolute forms first); the whole answer. */
function rawRequest(base: URL, target: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const socket = connect(Number(base.port), '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += String(chunk)));
    socket.on('close', () => resolve(answer));
  });
}

describe('routeFor: which kind of process answers a path', () => {
  const table = new Map<string, ProcessKind>([
    ['/stability', 'fees'],
    ['/subgraphs/fees', 'fees'],
    ['/v1/intelligence', 'intelligence'],
    ['/intelligence', 'intelligence'],
    ['/.well-known/x402', 'intelligence'],
    ['/rpc', 'chain'],
  ]);

  it('matches whole path segments, the longest prefix first, ignoring the query', () => {
    expect(routeFor(table, '/stability/quote?amountUsd=5', 'gateway')).toBe('fees');
    expect(routeFor(table, '/stability', 'gateway')).toBe('fees');
    expect(routeFor(table, '/subgraphs/fees/graphql', 'gateway')).toBe('fees');
    expect(routeFor(table, '/v1/intelligence/cascade', 'gateway')).toBe('intelligence');
    expect(routeFor(table, '/rpc', 'gateway')).toBe('chain');
  });

  it('sends everything else to the fallback, a path that only starts like a prefix included', () => {
    expect(routeFor(table, '/stabilityx/quote', 'gateway')).toBe('gateway');
    expect(routeFor(table, '/graphql', 'gateway')).toBe('gateway');
    expect(routeFor(table, '/.well-known/x402x', 'gateway')).toBe('gateway');
    expect(routeFor(table, '/', 'gateway')).toBe('gateway');
  });
});

describe('what the launcher reads from a process starting', () => {
  it('reads the REST prefixes of a subgraph process and the six contracts of the chain process', () => {
    const subgraph = [
      'settlement-rail-graph listening on http://localhost:41647 (database: postgres)',
      '  subgraph     http://localhost:41647/subgraphs/fees/graphql   REST http://localhost:41647/stability  http://localhost:41647/esg',
    ];
    expect(restPrefixesFromBanner(subgraph)).toEqual(['/stability', '/esg']);
    expect(restPrefixesFromBanner(['  gateway      http://localhost:1/graphql'])).toEqual([]);
    const address = (digit: string) => `0x${digit.repeat(40)}`;
    const chain = [
      `  rail         embedded EVM, chainId 8453, JSON-RPC at /rpc: token ${address('1')}, router ${address('2')}`,
      `  contracts    esgOracle ${address('3')}, redistribution ${address('4')}, stabilityPID ${address('5')}, basketPeg ${address('6')}`,
    ];
    expect(contractsFromBanner(chain)).toEqual({
      token: address('1'),
      router: address('2'),
      esgOracle: address('3'),
      redistribution: address('4'),
      stabilityPID: address('5'),
      basketPeg: address('6'),
    });
    expect(() => contractsFromBanner(chain.slice(0, 1))).toThrow(/esgOracle, redistribution, stabilityPID, basketPeg/);
  });
});

describe('the balancer: one port in front of processes', () => {
  const servers: Server[] = [];
  let balancer: FastifyInstance;
  let base: string;
  let up: Partial<Record<ProcessKind, string[]>>;

  beforeAll(async () => {
    const [first, second, fees, dying] = await Promise.all([
      upstream('gateway-1'),
      upstream('gateway-2'),
      upstream('fees-1'),
      // Takes the request and dies without answering, as a process killed mid-request does.
      upstream('payments-1', (request) => request.socket.destroy()),
    ]);
    servers.push(first.server, second.server, fees.server, dying.server);
    up = { gateway: [first.url, second.url], fees: [fees.url], payments: [dying.url] };
    const turns = new Map<ProcessKind, number>();
    balancer = await createBalancer({
      route: (url) =>
        routeFor(
          new Map<string, ProcessKind>([
            ['/stability', 'fees'],
            ['/integration', 'payments'],
            ['/forecast', 'forecast'],
          ]),
          url,
          'gateway',
        ),
      pick: (kind) => {
        const origins = up[kind] ?? [];
        const turn = turns.get(kind) ?? 0;
        turns.set(kind, turn + 1);
        return origins[turn % origins.length];
      },
    });
    base = await balancer.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await balancer.close();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('takes turns over the processes of a kind and passes the request on untouched', async () => {
    const served = [];
    for (let index = 0; index < 4; index += 1) {
      const response = await fetch(`${base}/graphql?x=${index}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"query":"{ a }","n":${index}}` });
      served.push((await response.json()) as { served: string; url: string; body: string; contentType: string });
    }
    expect(served.map((answer) => answer.served)).toEqual(['gateway-1', 'gateway-2', 'gateway-1', 'gateway-2']);
    expect(served[3]).toMatchObject({ url: '/graphql?x=3', body: '{"query":"{ a }","n":3}', contentType: 'application/json' });
    const fees = (await (await fetch(`${base}/stability/quote?amountUsd=1`)).json()) as { served: string; url: string };
    expect(fees).toMatchObject({ served: 'fees-1', url: '/stability/quote?amountUsd=1' });
  });

  it("drops a process's hop-by-hop answer headers: a client asking Connection: close has its connection closed", async () => {
    const answer = await rawRequest(new URL(base), '/graphql');
    const head = answer.split('\r\n\r\n')[0]!.toLowerCase();
    expect(head).toMatch(/^http\/1\.1 200 /);
    expect(head).toContain('\r\nconnection: close');
    expect(head).not.toContain('keep-alive');
  });

  it('routes by the path it passes on: dot segments cannot send one kind of process a path that belongs to another', async () => {
    const served = async (target: string) => JSON.parse((await rawRequest(new URL(base), target)).split('\r\n\r\n')[1]!) as { served: string; url: string };
    expect(await served('/stability/../graphql')).toMatchObject({ served: expect.stringMatching(/^gateway-/), url: '/graphql' });
    expect(await served('/graphql/%2e%2e/stability/quote?amountUsd=1')).toMatchObject({ served: 'fees-1', url: '/stability/quote?amountUsd=1' });
  });

  it('answers 503 in the generic error shape when no process of the kind is up, or when the one answering dies', async () => {
    const none = await fetch(`${base}/forecast/heat-check`);
    expect(none.status).toBe(503);
    expect(none.headers.get('retry-after')).toBe('1');
    expect(await none.json()).toEqual({ code: 'GEN_ERR_UNAVAILABLE', error: 'no forecast process is up; retry shortly' });
    const died = await fetch(`${base}/integration/payments/initiate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(died.status).toBe(503);
    expect(await died.json()).toEqual({ code: 'GEN_ERR_UNAVAILABLE', error: 'the payments process answering this request stopped; retry it' });
  });
});

describe('the balancer passes on a path only: no caller makes it reach another host', () => {
  it('upstreamUrl keeps the origin and refuses absolute URLs, //host and targets that are not paths', () => {
    const origin = 'http://127.0.0.1:4100';
    expect(upstreamUrl(origin, '/stability/quote?amountUsd=1')).toBe('http://127.0.0.1:4100/stability/quote?amountUsd=1');
    for (const target of ['http://127.0.0.1:47999/x', '//127.0.0.1:47999/x', '@127.0.0.1:47999/x', '*', '']) expect(upstreamUrl(origin, target)).toBeUndefined();
  });

  it('answers such a request line 400 in the generic shape, and never reaches the host it names', async () => {
    const hits: string[] = [];
    const other = await upstream('other', (request, response) => {
      hits.push(String(request.url));
      response.end();
    });
    const balancer = await createBalancer({ route: () => 'gateway', pick: () => 'http://127.0.0.1:1' });
    const base = new URL(await balancer.listen({ port: 0, host: '127.0.0.1' }));
    try {
      for (const target of [`${other.url}/x`, `//${new URL(other.url).host}/x`, `@${new URL(other.url).host}/x`]) {
        const answer = await rawRequest(base, target);
        expect(answer).toMatch(/^HTTP\/1\.1 400 /);
        expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ code: 'GEN_ERR_BAD_REQUEST' });
      }
      expect(hits).toEqual([]);
    } finally {
      await balancer.close();
      await new Promise((resolve) => other.server.close(resolve));
    }
  });
});

describe('the balancer sends each request once', () => {
  it('passes on a 503 a process answered a GET with, without asking it (or another) again', async () => {
    let hits = 0;
    const busy = await upstream('busy', (_request, response) => {
      hits += 1;
      response.statusCode = 503;
      response.setHeader('retry-after', '1');
      response.setHeader('content-type', 'application/json');
      response.end('{"code":"GEN_ERR_TIMEOUT"}');
    });
    const balancer = await createBalancer({ route: () => 'fees', pick: () => busy.url });
    try {
      const base = await balancer.listen({ port: 0, host: '127.0.0.1' });
      const answer = await fetch(`${base}/stability/quote?amountUsd=1`);
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ code: 'GEN_ERR_TIMEOUT' });
      expect(hits).toBe(1);
    } finally {
      await balancer.close();
      await new Promise((resolve) => busy.server.close(resolve));
    }
  });
});

describe("the cluster's /health names every process", () => {
  const servers: Server[] = [];
  let healthy: string;
  let sick: string;

  beforeAll(async () => {
    const answering = (status: number) => (_request: IncomingMessage, response: ServerResponse) => {
      response.statusCode = status;
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ checks: { database: { status: status === 200 ? 'up' : 'down' } }, down: status === 200 ? [] : ['database'] }));
    };
    const [good, bad] = await Promise.all([upstream('good', answering(200)), upstream('bad', answering(503))]);
    servers.push(good.server, bad.server);
    healthy = good.url;
    sick = bad.url;
  });
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  const managed = (name: string, kind: ProcessKind, status: ProcessStatus, url?: string): ManagedProcess =>
    ({ name, kind, status: () => status, url: () => url, pid: () => 4242, restarts: () => 1 }) as unknown as ManagedProcess;

  async function healthOf(processes: ManagedProcess[]) {
    const reply = {
      statusCode: 0,
      body: undefined as unknown,
      code(status: number) {
        this.statusCode = status;
        return this;
      },
      header() {
        return this;
      },
      send(body: unknown) {
        this.body = body;
        return this;
      },
    };
    await clusterHealth(processes, reply as never);
    return reply as { statusCode: number; body: { status: string; unserved: string[]; processes: Array<Record<string, unknown>> } };
  }

  it('ok when every process is healthy, degraded (200) when a kind still has one, down (503) naming the kinds left with none', async () => {
    const allUp = await healthOf([managed('fees-1', 'fees', 'up', healthy), managed('gateway-1', 'gateway', 'up', healthy)]);
    expect(allUp.statusCode).toBe(200);
    expect(allUp.body.status).toBe('ok');
    expect(allUp.body.processes.map((entry) => entry.name)).toEqual(['fees-1', 'gateway-1']);

    const oneDown = await healthOf([managed('fees-1', 'fees', 'up', healthy), managed('fees-2', 'fees', 'down'), managed('gateway-1', 'gateway', 'up', healthy)]);
    expect(oneDown.statusCode).toBe(200);
    expect(oneDown.body.status).toBe('degraded');
    expect(oneDown.body.processes[1]).toMatchObject({ name: 'fees-2', status: 'down', healthy: false, restarts: 1 });

    const unserved = await healthOf([managed('fees-1', 'fees', 'up', sick), managed('gateway-1', 'gateway', 'starting')]);
    expect(unserved.statusCode).toBe(503);
    expect(unserved.body).toMatchObject({ status: 'down', unserved: ['fees', 'gateway'] });
    expect(unserved.body.processes[0]).toMatchObject({ name: 'fees-1', healthy: false, down: ['database'] });
  });
});
