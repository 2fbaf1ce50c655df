import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEVELOPMENT_MNEMONIC } from '../platform/chain/embedded-chain.js';
import { measureSignalComputation, type SignalComputation } from '../subgraphs/intelligence/index.js';
import { bench, type Figures, type Load, progress, send } from './load.js';
import { count, rate, section, table } from './markdown.js';
import { createBenchKey } from './paid.js';
import { type Server, serverEnvironment, SIGNING_KEY, startRail, stopServers, tempFolder } from './processes.js';

/**
 * Section 8: the paid intelligence signals (issue 23) on an all-in-one rail with a bench API key:
 *   - uncached: each signal computed in this process over the shipped snapshot, COMPUTE_RUNS times
 *     (what a cache miss costs the rail, without HTTP);
 *   - first call: the first request of each path over HTTP, which computes and keeps the answer;
 *   - cached: the same path under load, every answer from the cache;
 *   - riskDashboard through /graphql (the gateway), caches warm.
 */

const COMPUTE_RUNS = 30;
/** An active GLEIF record of the shipped snapshot, for esg/:address. */
const EXAMPLE_LEI = '2138001KPMR6PD83HC08';
const DASHBOARD_QUERY =
  '{ riskDashboard { id stability { dataQuality asOf } heatCheck { asOf } macroStress { regime asOf } commodityStress { regime asOf } currencyStress { dollarRegime asOf } sovereignDebt { systemicSignals { globalDebtRegime } asOf } supplyChain { regime asOf } } }';

export interface SignalFigures {
  path: string;
  firstCallMs: number;
  cached: Figures;
}

export interface IntelligenceFigures {
  computations: SignalComputation[];
  signals: SignalFigures[];
  dashboard: Figures;
}

/** The GET paths /.well-known/x402 lists at the rail's root, path parameters filled. */
async function pricedPaths(rail: Server): Promise<string[]> {
  const discovery = JSON.parse((await send(rail.port, { path: '/.well-known/x402' })).text) as { endpoints: Record<string, unknown> };
  return Object.keys(discovery.endpoints)
    .filter((key) => key.startsWith('GET /v1/intelligence/'))
    .map((key) => key.slice('GET '.length).replace(':address', EXAMPLE_LEI));
}

async function benchSignal(rail: Server, key: string, path: string): Promise<SignalFigures> {
  const load: Load = { path, headers: { 'x-api-key': key }, expectStatus: 200 };
  const started = performance.now();
  const first = await send(rail.port, load);
  const firstCallMs = performance.now() - started;
  if (first.status !== 200) throw new Error(`GET ${path} answered ${first.status}: ${first.text.slice(0, 200)}`);
  return { path, firstCallMs, cached: await bench(`rail GET ${path}, X-API-Key, cached`, rail.port, load) };
}

export async function benchIntelligence(): Promise<IntelligenceFigures> {
  const computations = await measureSignalComputation(COMPUTE_RUNS);
  for (const computation of computations) progress(`compute ${computation.id}`, `p50 ${computation.p50Ms.toFixed(2)} ms, p99 ${computation.p99Ms.toFixed(2)} ms`);
  const environment = { DATA_DIR: join(tempFolder('intelligence-rail'), 'data'), QUOTE_SIGNING_KEY: SIGNING_KEY, NODE_ENV: 'production', EMBEDDED_CHAIN_MNEMONIC: DEVELOPMENT_MNEMONIC };
  const key = await createBenchKey(serverEnvironment(environment));
  const rail = await startRail('intelligence rail', [], environment);
  try {
    const signals: SignalFigures[] = [];
    for (const path of await pricedPaths(rail)) signals.push(await benchSignal(rail, key, path));
    const dashboardLoad: Load = { path: '/graphql', method: 'POST', body: JSON.stringify({ query: DASHBOARD_QUERY }), headers: { 'x-api-key': key }, expectStatus: 200 };
    await send(rail.port, dashboardLoad);
    const dashboard = await bench('rail POST /graphql riskDashboard, X-API-Key, caches warm', rail.port, dashboardLoad);
    return { computations, signals, dashboard };
  } finally {
    await stopServers([rail]);
  }
}

/** Section 8 alone (BENCH_ONLY=intelligence prints it; the full report includes it). */
export function intelligenceSection(figures: IntelligenceFigures): string[] {
  const computed = new Map(figures.computations.map((computation) => [computation.id, computation]));
  const idOf = (path: string) => path.slice('/v1/intelligence/'.length).replace(EXAMPLE_LEI, ':address');
  const intro = [
    `Uncached: each signal computed ${count(COMPUTE_RUNS)} times in the bench's own process over the shipped snapshot (the work of a cache miss, no HTTP; esg/:address reads the compliance subgraph and is timed by its first call only). First call: the first GET over HTTP, which pays the computation and keeps the answer in PostgreSQL (PGlite). Cached: the same GET under load with an API key, every answer from the cache. riskDashboard: the composed view through the gateway (/graphql), three subgraphs, caches warm.`,
  ];
  const rows = figures.signals.map((signal) => {
    const computation = computed.get(idOf(signal.path));
    const uncached = computation ? [computation.p50Ms.toFixed(2), computation.p99Ms.toFixed(2)] : ['—', '—'];
    return [signal.path, ...uncached, signal.firstCallMs.toFixed(0), rate(signal.cached), String(signal.cached.p50), String(signal.cached.p99), String(signal.cached.errors)];
  });
  return section('8. Intelligence signals, uncached and cached, and the risk dashboard', intro, [
    ...table(['path', 'uncached p50 ms', 'uncached p99 ms', 'first call ms', 'cached req/s', 'p50 ms', 'p99 ms', 'errors'], rows),
    '',
    ...table(
      ['query', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      [['riskDashboard through /graphql', rate(figures.dashboard), String(figures.dashboard.p50), String(figures.dashboard.p99), String(figures.dashboard.errors)]],
    ),
  ]);
}
