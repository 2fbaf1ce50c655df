import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEVELOPMENT_MNEMONIC } from '../platform/chain/embedded-chain.js';
import { measureSignalComputation, type SignalComputation, signalExamples } from '../subgraphs/intelligence/index.js';
import { bench, compare, type Comparison, type Figures, type Load, progress, send } from './load.js';
import { count, rate, section, table, times } from './markdown.js';
import { createBenchKey } from './paid.js';
import { type Server, serverEnvironment, SIGNING_KEY, startRail, startTarget, stopServers, tempFolder } from './processes.js';
import type { BareRoute } from './targets.js';

/**
 * Section 8: the paid intelligence signals and models (issues 23 and 24) on an all-in-one rail with a bench API key:
 *   - uncached: each endpoint computed in this process over the shipped snapshot, COMPUTE_RUNS times
 *     (what a cache miss or a simulation costs the rail, without HTTP);
 *   - first call: the first request of each cached path over HTTP, which computes and keeps the answer;
 *   - cached: the same path under load, every answer from the cache, against bare Fastify serving the
 *     same JSON at the same path (the ceiling of any handler);
 *   - simulations: each POST under load with its example body (never cached: every call computes);
 *   - riskDashboard through /graphql (the gateway), caches warm.
 */

const COMPUTE_RUNS = 200;
/** Time spent timing one endpoint uncached, after its first ten runs. */
const COMPUTE_BUDGET_MS = 5_000;
/** A contagion run of 12 epochs over the 30 nodes must compute in under this (issue 24). */
const CONTAGION_TARGET_MS = 5;
/** An active GLEIF record of the shipped snapshot, for esg/:address. */
const EXAMPLE_LEI = '2138001KPMR6PD83HC08';
const DASHBOARD_QUERY =
  '{ riskDashboard { id stability { dataQuality asOf } heatCheck { asOf } macroStress { regime asOf } commodityStress { regime asOf } currencyStress { dollarRegime asOf } sovereignDebt { systemicSignals { globalDebtRegime } asOf } supplyChain { regime asOf } } }';

export interface SignalFigures {
  path: string;
  firstCallMs: number;
  cached: Comparison;
}

export interface SimulationFigures {
  path: string;
  figures: Figures;
}

export interface IntelligenceFigures {
  computations: SignalComputation[];
  signals: SignalFigures[];
  simulations: SimulationFigures[];
  dashboard: Figures;
}

interface PricedPath {
  method: 'GET' | 'POST';
  path: string;
}

/** The paths /.well-known/x402 lists at the rail's root, path parameters filled. */
async function pricedPaths(rail: Server): Promise<PricedPath[]> {
  const discovery = JSON.parse((await send(rail.port, { path: '/.well-known/x402' })).text) as { endpoints: Record<string, unknown> };
  return Object.keys(discovery.endpoints)
    .filter((key) => / \/(v1\/)?intelligence\//.test(key))
    .map((key) => {
      const [method, path] = key.split(' ') as ['GET' | 'POST', string];
      return { method, path: path.replace(':address', EXAMPLE_LEI) };
    });
}

async function firstCall(rail: Server, load: Load): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const first = await send(rail.port, load);
  const ms = performance.now() - started;
  if (first.status !== 200) throw new Error(`${load.method ?? 'GET'} ${load.path} answered ${first.status}: ${first.text.slice(0, 200)}`);
  return { ms, text: first.text };
}

/** Bare Fastify serving each captured answer at its path. */
async function startBaseline(routes: BareRoute[]): Promise<Server> {
  const file = join(tempFolder('bare-intelligence'), 'routes.json');
  writeFileSync(file, JSON.stringify(routes));
  return startTarget('bare-fastify', [file]);
}

/** Every cached GET: its first call, then rail against bare Fastify under the same load. */
async function benchCachedSignals(rail: Server, key: string, paths: readonly string[]): Promise<SignalFigures[]> {
  const loads = paths.map((path): Load => ({ path, headers: { 'x-api-key': key }, expectStatus: 200 }));
  const firsts: Array<{ ms: number; text: string }> = [];
  for (const load of loads) firsts.push(await firstCall(rail, load));
  const baseline = await startBaseline(paths.map((path, index) => ({ method: 'GET', path, body: firsts[index]!.text })));
  try {
    const signals: SignalFigures[] = [];
    for (const [index, load] of loads.entries()) {
      const cached = await compare(
        `GET ${load.path}, cached`,
        undefined,
        { name: 'rail', port: rail.port, load },
        { name: 'bare Fastify', port: baseline.port, load: { path: load.path, expectStatus: 200 } },
      );
      signals.push({ path: load.path, firstCallMs: firsts[index]!.ms, cached });
    }
    return signals;
  } finally {
    await stopServers([baseline]);
  }
}

async function benchSimulations(rail: Server, key: string, paths: readonly string[]): Promise<SimulationFigures[]> {
  const examples = signalExamples();
  const simulations: SimulationFigures[] = [];
  for (const path of paths) {
    const example = examples.get(path);
    if (!example) throw new Error(`POST ${path} has no example body to bench with`);
    const load: Load = { path, method: 'POST', body: JSON.stringify(example), headers: { 'x-api-key': key }, expectStatus: 200 };
    await firstCall(rail, load);
    simulations.push({ path, figures: await bench(`rail POST ${path}, X-API-Key, computed per call`, rail.port, load) });
  }
  return simulations;
}

export async function benchIntelligence(): Promise<IntelligenceFigures> {
  const computations = await measureSignalComputation(COMPUTE_RUNS, COMPUTE_BUDGET_MS);
  for (const computation of computations) progress(`compute ${computation.id}`, `${computation.runs} runs, p50 ${computation.p50Ms.toFixed(2)} ms, p99 ${computation.p99Ms.toFixed(2)} ms`);
  const environment = { DATA_DIR: join(tempFolder('intelligence-rail'), 'data'), QUOTE_SIGNING_KEY: SIGNING_KEY, NODE_ENV: 'production', EMBEDDED_CHAIN_MNEMONIC: DEVELOPMENT_MNEMONIC };
  const key = await createBenchKey(serverEnvironment(environment));
  const rail = await startRail('intelligence rail', [], environment);
  try {
    const priced = await pricedPaths(rail);
    const uncachedGets = new Set(['/v1/intelligence/ledger']);
    const gets = priced.filter((entry) => entry.method === 'GET' && !uncachedGets.has(entry.path)).map((entry) => entry.path);
    const signals = await benchCachedSignals(rail, key, gets);
    const simulations = await benchSimulations(
      rail,
      key,
      priced.filter((entry) => entry.method === 'POST').map((entry) => entry.path),
    );
    const dashboardLoad: Load = { path: '/graphql', method: 'POST', body: JSON.stringify({ query: DASHBOARD_QUERY }), headers: { 'x-api-key': key }, expectStatus: 200 };
    await send(rail.port, dashboardLoad);
    const dashboard = await bench('rail POST /graphql riskDashboard, X-API-Key, caches warm', rail.port, dashboardLoad);
    return { computations, signals, simulations, dashboard };
  } finally {
    await stopServers([rail]);
  }
}

const idOf = (path: string) => path.replace(/^\/(v1\/)?intelligence\//, '').replace(EXAMPLE_LEI, ':address');

function contagionLine(computed: ReadonlyMap<string, SignalComputation>): string {
  const contagion = computed.get('contagion');
  if (!contagion) return 'The contagion simulation was not timed.';
  const met = contagion.p99Ms < CONTAGION_TARGET_MS ? 'met' : 'NOT met';
  return `Contagion, 12 epochs over the 30 nodes: p50 ${contagion.p50Ms.toFixed(3)} ms, p99 ${contagion.p99Ms.toFixed(3)} ms against a target of under ${CONTAGION_TARGET_MS} ms: ${met}.`;
}

/** Section 8 alone (BENCH_ONLY=intelligence prints it; the full report includes it). */
export function intelligenceSection(figures: IntelligenceFigures): string[] {
  const computed = new Map(figures.computations.map((computation) => [computation.id, computation]));
  const intro = [
    `Uncached: each endpoint computed up to ${count(COMPUTE_RUNS)} times (at least 10, within ${COMPUTE_BUDGET_MS / 1000} s) in the bench's own process over the shipped snapshot, the simulations with their example body (the work of a cache miss or of one simulation, no HTTP; esg/:address reads the compliance subgraph and the ledger reads PostgreSQL, so they are timed by their first call only). First call: the first GET over HTTP, which pays the computation and keeps the answer in PostgreSQL (PGlite). Cached: the same GET under load with an API key, every answer from the cache, against bare Fastify serving the same JSON at the same path. Simulations: the POST under load, each call computed (never cached). riskDashboard: the composed view through the gateway (/graphql), three subgraphs, caches warm.`,
    '',
    contagionLine(computed),
  ];
  const uncached = (id: string) => {
    const computation = computed.get(id);
    return computation ? [computation.p50Ms.toFixed(2), computation.p99Ms.toFixed(2)] : ['—', '—'];
  };
  const signalRows = figures.signals.map((signal) => [
    signal.path,
    ...uncached(idOf(signal.path)),
    signal.firstCallMs.toFixed(0),
    rate(signal.cached.rail),
    String(signal.cached.rail.p99),
    rate(signal.cached.baseline),
    times(signal.cached.rail.requestsPerSecond / signal.cached.baseline.requestsPerSecond),
    String(signal.cached.rail.errors),
  ]);
  const simulationRows = figures.simulations.map((simulation) => [
    `POST ${simulation.path}`,
    ...uncached(idOf(simulation.path)),
    rate(simulation.figures),
    String(simulation.figures.p50),
    String(simulation.figures.p99),
    String(simulation.figures.errors),
  ]);
  return section('8. Intelligence signals and models, uncached and cached, and the risk dashboard', intro, [
    ...table(['path', 'uncached p50 ms', 'uncached p99 ms', 'first call ms', 'cached req/s', 'p99 ms', 'bare Fastify req/s', 'rail / bare', 'errors'], signalRows),
    '',
    ...table(['simulation', 'uncached p50 ms', 'uncached p99 ms', 'req/s', 'p50 ms', 'p99 ms', 'errors'], simulationRows),
    '',
    ...table(
      ['query', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      [['riskDashboard through /graphql', rate(figures.dashboard), String(figures.dashboard.p50), String(figures.dashboard.p99), String(figures.dashboard.errors)]],
    ),
  ]);
}
