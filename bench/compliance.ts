import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { labelledNamePairs, leiRecords, pepMatcherEvaluation, pepRecords, sanctionsMatcherEvaluation, sdnList } from '../subgraphs/compliance/data/index.js';
import { buildSanctionsIndex, type MatcherEvaluation, nameTokens, type SanctionsIndex, type ScreenStatistics } from '../subgraphs/compliance/domain/index.js';
import { buildPepIndex } from '../subgraphs/compliance/pep/domain/index.js';
import { bench, type Figures, graphQLProblem, type Load, progress, send } from './load.js';
import { createBenchKey } from './paid.js';
import { type Server, serverEnvironment, SIGNING_KEY, startRail, stopServers, tempFolder } from './processes.js';

/**
 * Section 6: compliance.
 *   - sanctions screening in this process (one thread, pinned to the load core when pinning is on)
 *     against the whole shipped SDN list, names and aliases, through the screening index: every
 *     query name screened once after a warm-up on other names, then WARM_PASSES more times;
 *   - POST /compliance/vop/verify with an API key (section 5 measured the x402 path), on a wallet
 *     registered under an LEI of the shipped GLEIF snapshot: the exact registered name, and a near one;
 *   - the vendor query for the same entity and wallet: POST /compliance/vendor-risk, and the
 *     vendorAssessment query through /graphql (compliance and fees in one request);
 *   - precision and recall of the name matcher on the labelled pairs, at the sanctions and PEP thresholds.
 */

/** Other names screened first, so the first screen of a query name runs JIT-compiled code: PEP records. */
export const WARMUP_NAMES = 500;
/** Repeat screens of the whole query set, after the first. */
export const WARM_PASSES = 5;
export const SCREEN_P99_TARGET_MS = 1;
/** An active LEI of the shipped GLEIF snapshot (the one the route tests register). */
const VENDOR_LEI = '2138001KPMR6PD83HC08';
/** Scores 66.67 against the registered name (decision 0055): PROCEED_FLAGGED, with the gray-zone reasoning. */
const NEAR_NAME = 'Shell Technologies Singapore';
const ADMIN_KEY = randomBytes(24).toString('hex');

export interface Latency {
  screens: number;
  namesPerSecond: number;
  /** Wall time per name, ms. */
  p50: number;
  p99: number;
  max: number;
  /** CPU time of the process per name (process.cpuUsage), ms: the wall time less the waits for a core the machine's load imposed. */
  cpuP50: number;
  cpuP99: number;
  /** Share of the query tokens of the last pass whose similar tokens came from the index's cache. */
  cachedShare: number;
}

/** Mean and largest of one statistic over the first screens. */
export interface Spread {
  mean: number;
  max: number;
}

export interface ScreeningFigures {
  entries: number;
  indexedNames: number;
  vocabularyTokens: number;
  /** Parsing the shipped CSV files, then building the index (with its similar-token table), ms. */
  loadMs: number;
  buildMs: number;
  /** Memory the index holds once built: JavaScript heap and typed-array buffers, MB (after a GC when node runs with --expose-gc). */
  indexHeapMB: number;
  indexBuffersMB: number;
  /** Distinct query names: both sides of the labelled pairs, and the GLEIF legal names. */
  queries: { pairNames: number; leiNames: number };
  /** Queries with at least one match at the sanctions threshold. */
  matched: number;
  first: Latency;
  repeated: Latency;
  namesReached: Spread;
  namesScored: Spread;
  tokenComparisons: Spread;
}

export interface VopRun {
  submittedName: string;
  result: string;
  figures: Figures;
}

/** One form of the vendor query: measured, or why it could not be. */
export interface VendorRun {
  request: string;
  verdict?: string;
  figures?: Figures;
  problem?: string;
}

export interface ComplianceFigures {
  screening: ScreeningFigures;
  vop: VopRun[];
  /** The vendor query's REST body. */
  vendorBody: string;
  vendor: VendorRun[];
  sanctions: MatcherEvaluation;
  pep: MatcherEvaluation;
}

const percentile = (sorted: readonly number[], share: number) => sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? 0;

function spread(values: readonly number[]): Spread {
  return { mean: sum(values) / Math.max(1, values.length), max: Math.max(0, ...values) };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const ascending = (values: number[]) => values.sort((a, b) => a - b);

/** Screens each name `passes` times, timing each screen (wall and CPU); the statistics of the last pass. */
function screenAll(index: SanctionsIndex, names: readonly string[], passes: number): { latency: Latency; statistics: ScreenStatistics[]; matched: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  let statistics: ScreenStatistics[] = [];
  let matched = 0;
  const started = performance.now();
  for (let pass = 0; pass < passes; pass++) {
    statistics = [];
    matched = 0;
    for (const name of names) {
      const cpuBefore = process.cpuUsage();
      const before = performance.now();
      const screen = index.screenName(name);
      wall.push(performance.now() - before);
      const used = process.cpuUsage(cpuBefore);
      cpu.push((used.user + used.system) / 1000);
      statistics.push(screen.statistics);
      if (screen.matches.length > 0) matched++;
    }
  }
  const elapsed = performance.now() - started;
  ascending(wall);
  ascending(cpu);
  const queryTokens = sum(names.map((name) => nameTokens(name).length));
  const latency: Latency = {
    screens: wall.length,
    namesPerSecond: (wall.length * 1000) / elapsed,
    p50: percentile(wall, 0.5),
    p99: percentile(wall, 0.99),
    max: wall.at(-1) ?? 0,
    cpuP50: percentile(cpu, 0.5),
    cpuP99: percentile(cpu, 0.99),
    cachedShare: sum(statistics.map((s) => s.cachedTokens)) / Math.max(1, queryTokens),
  };
  return { latency, statistics, matched };
}

/** Memory in use, after a collection when the process allows one (node --expose-gc). */
function settledMemory(): NodeJS.MemoryUsage {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage();
}

export async function benchScreening(): Promise<ScreeningFigures> {
  const loadStarted = performance.now();
  const entries = sdnList().records;
  const memoryBefore = settledMemory();
  const built = performance.now();
  const index = buildSanctionsIndex(entries);
  // The similar-token table is built in slices after the index (decision 0097): both count, and the screens start once it is ready.
  await index.tableReady;
  const buildMs = performance.now() - built;
  const memoryAfter = settledMemory();
  const pairNames = [...new Set(labelledNamePairs().flatMap((pair) => [pair.a, pair.b]))];
  const leiNames = [...new Set(leiRecords().records.map((record) => record.legalName))].filter((name) => !pairNames.includes(name));
  const names = [...pairNames, ...leiNames];

  screenAll(
    index,
    pepRecords()
      .slice(0, WARMUP_NAMES)
      .map((record) => record.name),
    1,
  );
  const first = screenAll(index, names, 1);
  const repeated = screenAll(index, names, WARM_PASSES);
  const [one] = first.statistics;
  const figures: ScreeningFigures = {
    entries: index.size.entries,
    indexedNames: one?.indexedNames ?? 0,
    vocabularyTokens: one?.vocabularyTokens ?? 0,
    loadMs: built - loadStarted,
    buildMs,
    indexHeapMB: (memoryAfter.heapUsed - memoryBefore.heapUsed) / 1e6,
    indexBuffersMB: (memoryAfter.arrayBuffers - memoryBefore.arrayBuffers) / 1e6,
    queries: { pairNames: pairNames.length, leiNames: leiNames.length },
    matched: first.matched,
    first: first.latency,
    repeated: repeated.latency,
    namesReached: spread(first.statistics.map((s) => s.namesReached)),
    namesScored: spread(first.statistics.map((s) => s.namesScored)),
    tokenComparisons: spread(first.statistics.map((s) => s.tokenComparisons)),
  };
  const line = (latency: Latency) =>
    `${latency.namesPerSecond.toFixed(0).padStart(7)} names/s   p50 ${latency.p50.toFixed(3)} ms   p99 ${latency.p99.toFixed(3)} ms (CPU ${latency.cpuP99.toFixed(3)})   max ${latency.max.toFixed(1)} ms`;
  progress('SDN index build', `${buildMs.toFixed(0)} ms, heap +${figures.indexHeapMB.toFixed(1)} MB, typed arrays +${figures.indexBuffersMB.toFixed(1)} MB`);
  progress(`SDN screen, first screen of ${names.length} names`, line(first.latency));
  progress(`SDN screen, ${WARM_PASSES} more passes`, line(repeated.latency));
  progress('names scored per screen (mean / max)', `${figures.namesScored.mean.toFixed(1)} / ${figures.namesScored.max} of ${figures.indexedNames} indexed names`);
  return figures;
}

/** One request that must answer one of `statuses` with JSON; the parsed body. */
async function answer(port: number, load: Load, statuses: readonly number[] = [200]): Promise<Record<string, unknown>> {
  const { status, text } = await send(port, load);
  if (!statuses.includes(status)) throw new Error(`${load.method ?? 'GET'} ${load.path} answered ${status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}): Load => ({ path, method: 'POST', body: JSON.stringify(body), headers, expectStatus: 200 });

/** The payment whose fee the vendor query asks fees for. */
export const FEE_AMOUNT_USD = 10_000;

/** The vendor view in one gateway request: score, PEP, VoP (by the API key), the entity's ownership chain, ESG and the fees subgraph's fee. */
const VENDOR_QUERY = `query Vendor($name: String!, $lei: String, $wallet: String, $country: String) {
  vendorAssessment(name: $name, lei: $lei, wallet: $wallet, country: $country) {
    vendorRiskScore riskTier compliance { verdict signals } pepScreen { riskLevel eddRequired } vop { result score }
    legalEntity { lei esgScore ownershipChain { result chain { lei role } } paymentFee(amountUsd: ${FEE_AMOUNT_USD}) { fees { total { bps usd } } } }
  }
}`;

/** POST /compliance/vendor-risk, then the vendorAssessment query through /graphql (a problem instead of figures when the graph cannot answer it). */
async function benchVendor(rail: Server, body: { name: string; lei: string; wallet: string; country?: string }, key: string): Promise<VendorRun[]> {
  const rest = post('/compliance/vendor-risk', body);
  const restAnswer = await answer(rail.port, rest);
  const restVerdict = `${String(restAnswer.riskTier)}, score ${String(restAnswer.vendorRiskScore)}`;
  const runs: VendorRun[] = [{ request: 'POST /compliance/vendor-risk', verdict: restVerdict, figures: await bench(`rail POST /compliance/vendor-risk (${restVerdict})`, rail.port, rest) }];
  const graphQL = post('/graphql', { query: VENDOR_QUERY, variables: body }, { 'x-api-key': key });
  const request = 'POST /graphql vendorAssessment, X-API-Key (for its VoP)';
  const problem = await graphQLProblem(rail.port, graphQL);
  if (problem) {
    progress(request, `cannot serve: ${problem.slice(0, 120)}`);
    return [...runs, { request, problem }];
  }
  const data = (JSON.parse((await send(rail.port, graphQL)).text) as { data: { vendorAssessment: { riskTier: string; vendorRiskScore: number; vop: { result: string } | null } } }).data
    .vendorAssessment;
  const verdict = `${data.riskTier}, score ${data.vendorRiskScore}, VoP ${data.vop?.result ?? 'none'}`;
  return [...runs, { request, verdict, figures: await bench(`rail ${request} (${verdict})`, rail.port, graphQL) }];
}

async function benchServer(): Promise<Pick<ComplianceFigures, 'vop' | 'vendorBody' | 'vendor'>> {
  const lei = leiRecords().records.find((record) => record.lei === VENDOR_LEI);
  if (!lei) throw new Error(`the shipped GLEIF snapshot has no ${VENDOR_LEI}`);
  const dataDir = join(tempFolder('compliance-rail'), 'data');
  const environment = { DATA_DIR: dataDir, QUOTE_SIGNING_KEY: SIGNING_KEY, NODE_ENV: 'production', ADMIN_KEY };
  const key = await createBenchKey(serverEnvironment(environment));
  let rail: Server | undefined;
  try {
    rail = await startRail('compliance rail', [], environment);
    const walletAddress = `0x${randomBytes(20).toString('hex')}`;
    await answer(rail.port, post('/compliance/register', { walletAddress, lei: lei.lei }, { authorization: `Bearer ${ADMIN_KEY}` }), [201]);
    const vop: VopRun[] = [];
    for (const submittedName of [lei.legalName, NEAR_NAME]) {
      const load = post('/compliance/vop/verify', { walletAddress, submittedName }, { 'x-api-key': key });
      const result = String((await answer(rail.port, load)).result);
      vop.push({ submittedName, result, figures: await bench(`rail POST /compliance/vop/verify, X-API-Key, ${result}`, rail.port, load) });
    }
    const body = { name: lei.legalName, lei: lei.lei, wallet: walletAddress, ...(lei.country ? { country: lei.country } : {}) };
    return { vop, vendorBody: JSON.stringify(body), vendor: await benchVendor(rail, body, key) };
  } finally {
    await stopServers([rail]);
  }
}

export async function benchCompliance(): Promise<ComplianceFigures> {
  const screening = await benchScreening();
  const sanctions = sanctionsMatcherEvaluation(buildSanctionsIndex(sdnList().records));
  const pep = pepMatcherEvaluation(buildPepIndex(pepRecords()));
  for (const [label, evaluation] of [
    ['sanctions', sanctions],
    ['PEP', pep],
  ] as const) {
    progress(`matcher at the ${label} threshold ${evaluation.threshold}, ${evaluation.pairs} pairs`, `precision ${evaluation.precision.toFixed(3)}   recall ${evaluation.recall.toFixed(3)}`);
  }
  return { screening, ...(await benchServer()), sanctions, pep };
}

// The screening measurement alone, without the servers of the rest of the section:
//   taskset -c 1 node --expose-gc --import tsx bench/compliance.ts screening
if (process.argv[2] === 'screening' && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void benchScreening();
