import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/**
 * npm run bench: throughput and latency of the hot paths against their baselines, on loopback,
 * bounded in time. Figures, not assertions: CI never runs this.
 */
const CONNECTIONS = 50;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_SECONDS = 2;

interface Target {
  port: number;
  process: ChildProcess;
}

async function startTarget(kind: string, argument?: string): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/targets.ts', kind, ...(argument ? [argument] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (line.startsWith('{"port"')) return { port: (JSON.parse(line) as { port: number }).port, process: child };
  }
  throw new Error(`target ${kind} exited before listening`);
}

interface Load {
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
}

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(port: number, load: Load, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${load.path}`,
    method: load.method ?? 'GET',
    connections: CONNECTIONS,
    duration: seconds,
    ...(load.body ? { body: load.body, headers: { 'content-type': 'application/json' } } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function bench(name: string, port: number, load: Load): Promise<Figures> {
  await measure(port, load, WARMUP_SECONDS);
  const figures = await measure(port, load, DURATION_SECONDS);
  console.log(
    `${name.padEnd(52)} ${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(figures.p50).padStart(4)} ms   p99 ${String(figures.p99).padStart(4)} ms   errors ${figures.errors}`,
  );
  return figures;
}

const QUOTE_PATH = '/stability/quote?amountUsd=10000&hasFx=true&esgScore=75';
const QUOTE_QUERY = JSON.stringify({
  query: '{ feeQuote(input: {amountUsd: 10000, hasFx: true, esgScore: 75}) { quoteId volumeTier fees { core { bps usd } fx { bps usd } esg { bps pct usd score tier } license { bps usd } total { bps pct usd } } settlement { netUsd grossUsd } } }',
});

const PORTFOLIO_BODY = JSON.stringify({
  positions: ['WHEAT', 'CORN', 'SOYB', 'COFFEE', 'COCOA', 'COTTON', 'SUGAR', 'WTI', 'NG', 'COPPER'].map((symbol, index) => ({ symbol, notionalUsd: 100_000 * (index + 1) })),
});
const HEAT_CHECK_QUERY = JSON.stringify({ query: '{ heatCheck { asOf commodities { symbol status signal } } }' });
const PORTFOLIO_QUERY = JSON.stringify({
  query: 'query ($input: PortfolioInput!) { portfolioStress(input: $input) { portfolioRiskScore exposureByTier { GREEN YELLOW RED } worstCaseDrawdown { usd pct } positions { symbol climateRiskScore status } recommendations } }',
  variables: { input: JSON.parse(PORTFOLIO_BODY) as unknown },
});

/** The 512 KB request of issue 6 (9,000 x commodities{outlook}): time to refusal, and /health meanwhile. */
const HOSTILE_QUERY = JSON.stringify({ query: `{ ${Array.from({ length: 9000 }, () => 'commodities { outlook { symbol status confidence } }').join(' ')} }` });

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

async function benchHostileRequest(port: number): Promise<void> {
  const post = () => timed(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: HOSTILE_QUERY });
  const refusals: number[] = [];
  for (let round = 0; round < 20; round += 1) refusals.push((await post()).ms);
  const inFlight = Array.from({ length: 10 }, post);
  const health = await timed(`http://127.0.0.1:${port}/health`);
  const statuses = new Set((await Promise.all(inFlight)).map((result) => result.status));
  refusals.sort((a, b) => a - b);
  const size = (HOSTILE_QUERY.length / 1024).toFixed(0);
  console.log(`${`9,000-field request (${size} KB) refused`.padEnd(52)} median ${refusals[10]?.toFixed(1)} ms   max ${refusals[19]?.toFixed(1)} ms   status ${[...statuses].join(',')}`);
  console.log(`${'/health while 10 of them are in flight'.padEnd(52)} ${health.ms.toFixed(1)} ms   status ${health.status}`);
}

function ratio(label: string, numerator: number, denominator: number, target: string): void {
  console.log(`${label.padEnd(52)} ${(numerator / denominator).toFixed(2)}x   (target ${target})`);
}

const targets: Target[] = [];

async function main(): Promise<void> {
  console.log(`autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per figure after ${WARMUP_SECONDS} s warm-up, loopback\n`);
  try {
    const rail = await startTarget('rail');
    targets.push(rail);
    const sample = await (await fetch(`http://127.0.0.1:${rail.port}${QUOTE_PATH}`)).text();
    const bare = await startTarget('bare-fastify', sample);
    const naive = await startTarget('naive-apollo');
    targets.push(bare, naive);

    const restQuote = await bench('REST GET /stability/quote', rail.port, { path: QUOTE_PATH });
    const bareFastify = await bench('baseline: bare Fastify route, same JSON', bare.port, { path: '/stability/quote' });
    const graphQuote = await bench('GraphQL feeQuote through /graphql', rail.port, { path: '/graphql', method: 'POST', body: QUOTE_QUERY });
    const naiveApollo = await bench('baseline: naive @apollo/server + @apollo/gateway', naive.port, { path: '/', method: 'POST', body: QUOTE_QUERY });
    await bench('REST GET /forecast/heat-check', rail.port, { path: '/forecast/heat-check' });
    await bench('GraphQL heatCheck through /graphql', rail.port, { path: '/graphql', method: 'POST', body: HEAT_CHECK_QUERY });
    await bench('REST POST /forecast/portfolio (10 positions)', rail.port, { path: '/forecast/portfolio', method: 'POST', body: PORTFOLIO_BODY });
    await bench('GraphQL portfolioStress (10 positions)', rail.port, { path: '/graphql', method: 'POST', body: PORTFOLIO_QUERY });
    await benchHostileRequest(rail.port);
    console.log('');
    ratio('REST quote / bare Fastify', restQuote.requestsPerSecond, bareFastify.requestsPerSecond, '>= 0.50x');
    ratio('GraphQL quote / naive Apollo gateway', graphQuote.requestsPerSecond, naiveApollo.requestsPerSecond, '>= 3x');
  } finally {
    for (const target of targets) target.process.kill('SIGTERM');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  for (const target of targets) target.process.kill('SIGTERM');
  process.exit(1);
});
