import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { COLD_START_TARGET_MS, type ColdStart, type MemoryFigures } from './cold-start.js';
import { type ComplianceFigures, FEE_AMOUNT_USD, type Latency, SCREEN_P99_TARGET_MS, WARM_PASSES, WARMUP_NAMES } from './compliance.js';
import type { HostileFigures } from './graphql.js';
import { intelligenceSection } from './intelligence.js';
import { type Comparison, CONNECTIONS, type Figures, SECONDS, WARMUP_SECONDS } from './load.js';
import { count, rate, section, table, times } from './markdown.js';
import { type AccessFigures, CLIMATE_PATH, MAX_PAYMENTS, type PaidRun } from './paid.js';
import {
  CALLBACK_PAYMENTS,
  CALLBACK_WAIT_MS,
  FRESH_PAYMENTS,
  FRESH_TARGET_PER_SECOND,
  FRESH_WARMUP,
  type PaymentRun,
  type PaymentsOutcome,
  paymentsPerTransaction,
  REPLAY_TARGET_PER_SECOND,
  REPLAY_WARMUP,
  REPLAYS,
} from './payments.js';
import { describeCommit } from './report-file.js';
import type { BenchResults } from './results.js';
import { type GatewayRun, SPLIT_LAYOUT_NOTE, type SplitQuery } from './split-layout.js';
import { issueTargets, targetsMet, targetsTable } from './targets-summary.js';

/** docs/benchmarks.md (and stdout): what ran where, then one table a section, each figure against its target. */

export { REPORT_PATH } from './report-file.js';
export type { BenchResults } from './results.js';

const SPLIT_STOCK_TARGET = 3;
const SPLIT_P99_TARGET_MS = 100;

function describeMachine(pinning: string, loadAtStart: number): string[] {
  const processors = cpus();
  return [
    `- CPU: ${processors[0]?.model.trim() ?? 'unknown'} × ${processors.length}`,
    `- Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GB`,
    `- Node: ${process.version}; OS: ${type()} ${release()}`,
    `- Pinning: ${pinning}`,
    `- Load: 1-minute load average ${loadAtStart.toFixed(1)} at the start of the run, ${loadavg()[0]!.toFixed(1)} at its end, on ${processors.length} cores (the bench's own processes included)`,
  ];
}

const verdict = (met: boolean) => (met ? 'met' : '**not met**');

/** Targets checked in the report, for the summary line. */
class Tally {
  met = 0;
  total = 0;

  check(met: boolean): string {
    this.total += 1;
    if (met) this.met += 1;
    return verdict(met);
  }
}

/** Rail against a baseline, a row a load: both figures, the ratio, its target and whether it is met. */
function comparisonTable(first: string, baseline: string, rows: readonly Comparison[], tally: Tally): string[] {
  return table(
    [first, 'rail req/s', 'p50 ms', 'p99 ms', `${baseline} req/s`, 'p50 ms', 'p99 ms', `errors (rail/${baseline})`, 'ratio', 'target', 'result'],
    rows.map((row) => {
      const ratio = row.rail.requestsPerSecond / row.baseline.requestsPerSecond;
      const figures = (of: Figures) => [rate(of), String(of.p50), String(of.p99)];
      const target = row.target === undefined ? ['—', '—'] : [`>= ${times(row.target)}`, tally.check(ratio >= row.target)];
      return [row.label, ...figures(row.rail), ...figures(row.baseline), `${row.rail.errors}/${row.baseline.errors}`, times(ratio), ...target];
    }),
  );
}

function restSection(rows: readonly Comparison[], tally: Tally): string[] {
  return section(
    '1. REST routes vs a bare Fastify route returning the same JSON',
    ["Each route's real response was captured from the rail first; bare Fastify serves it (parsed once, serialised per request) at the same method and path."],
    comparisonTable('route', 'bare Fastify', rows, tally),
  );
}

function graphQLSection(rows: readonly Comparison[], hostile: HostileFigures, tally: Tally): string[] {
  return section(
    '2. GraphQL through /graphql (all-in-one rail) vs naive Apollo',
    ['Naive Apollo: @apollo/server standalone + @apollo/gateway with Apollo defaults and LocalGraphQLDataSource over the same subgraph schemas, in one process.'],
    [
      ...comparisonTable('query', 'naive Apollo', rows, tally),
      '',
      `Hostile request (issue 6) against the rail: the ${hostile.sizeKb} KB document of 9,000 \`commodities { outlook }\` fields is refused in median ${hostile.medianMs.toFixed(1)} ms (max ${hostile.maxMs.toFixed(1)} ms of 20, status ${hostile.statuses.join(', ')}); GET /health while 10 of them are in flight: ${hostile.healthMs.toFixed(1)} ms, status ${hostile.healthStatus}.`,
    ],
  );
}

function gatewayCells(query: string, run: GatewayRun): string[] {
  if (!run.figures) return [query, run.gateway, `cannot serve: ${run.problem ?? 'unknown'}`, '', '', ''];
  return [query, run.gateway, rate(run.figures), String(run.figures.p50), String(run.figures.p99), String(run.figures.errors)];
}

/** ours / mercurius: against the fees+forecast mercurius, or (flagged) the single-service one. */
function mercuriusRatio(row: SplitQuery, ours: Figures, tally: Tally): [string, string] {
  const served = row.mercurius.figures ? row.mercurius : row.mercuriusSingleService;
  if (!served?.figures) return ['— (mercurius cannot serve it)', 'n/a'];
  const ratio = ours.requestsPerSecond / served.figures.requestsPerSecond;
  const against = served === row.mercurius ? '' : ` (vs ${served.gateway})`;
  return [`${times(ratio)}${against}`, tally.check(ratio > 1)];
}

function splitRatios(row: SplitQuery, tally: Tally): string[] {
  const ours = row.ours.figures;
  if (!ours) return [row.query, 'ours cannot serve it', '', '', '', '', ''];
  const stock = row.stock.figures ? ours.requestsPerSecond / row.stock.figures.requestsPerSecond : undefined;
  return [
    row.query,
    stock === undefined ? '— (stock cannot serve it)' : times(stock),
    stock === undefined ? 'n/a' : tally.check(stock >= SPLIT_STOCK_TARGET),
    ...mercuriusRatio(row, ours, tally),
    String(ours.p99),
    tally.check(ours.p99 < SPLIT_P99_TARGET_MS),
  ];
}

const SINGLE_SERVICE_NOTE =
  'Where the federated mercurius gateway cannot serve a query, a mercurius gateway composed of the one subgraph owning the field was measured instead (a single-service gateway: no federation, one fetch) and the ratio is taken against it. ' +
  "The cause (decision 0095): @apollo/subgraph prints the Federation 2 definitions of the federation directives in `_service { sdl }` (`@requires(fields: federation__FieldSet!)`), mercurius adds its own Federation 1 ones (`@requires(fields: _FieldSet!)`) and refuses two definitions of one name; bench/targets.ts gives mercurius each subgraph's SDL without them, which serves a single service, not the five-subgraph composition.";

function splitSection(rows: readonly SplitQuery[], tally: Tally): string[] {
  const runs = rows.flatMap((row) => [row.ours, row.stock, row.mercurius, ...(row.mercuriusSingleService ? [row.mercuriusSingleService] : [])].map((run) => gatewayCells(row.query, run)));
  const problems = rows.flatMap((row) => [row.mercurius, row.stock, row.ours].filter((run) => !run.figures).map((run) => `- ${run.gateway} cannot serve ${row.query}: ${run.problem ?? 'unknown'}`));
  const intro = [
    'Ours: `gateway/main.ts serve gateway` with SUBGRAPH_URLS. Stock: @apollo/gateway with RemoteGraphQLDataSource and the checked-in supergraph, on @apollo/server standalone. Mercurius: Fastify + @mercuriusjs/gateway with `gateway: { services }` at the subgraph URLs.',
    `Note: ${SPLIT_LAYOUT_NOTE}.`,
  ];
  return section('3. Split layout: one process per subgraph, three gateways over the same subgraph processes', intro, [
    ...table(['query', 'gateway', 'req/s', 'p50 ms', 'p99 ms', 'errors'], runs),
    '',
    ...table(
      ['query', 'ours / stock', `target >= ${times(SPLIT_STOCK_TARGET)}`, 'ours / mercurius', 'target > 1x', 'ours p99 ms', `target < ${SPLIT_P99_TARGET_MS} ms`],
      rows.map((row) => splitRatios(row, tally)),
    ),
    ...(problems.length > 0 ? ['', ...problems] : []),
    ...(rows.some((row) => row.mercuriusSingleService) ? ['', SINGLE_SERVICE_NOTE] : []),
  ]);
}

function startSection(coldStart: ColdStart, memory: MemoryFigures, tally: Tally): string[] {
  const target = `< ${COLD_START_TARGET_MS / 1000} s`;
  const cold =
    coldStart.ms === undefined
      ? [`did not answer: ${coldStart.problem ?? 'unknown'}`, target, tally.check(false)]
      : [`${(coldStart.ms / 1000).toFixed(2)} s${coldStart.selfReported ? ` (its own log: "${coldStart.selfReported}")` : ''}`, target, tally.check(coldStart.ms < COLD_START_TARGET_MS)];
  const intro = [
    "The cold start ran first, with nothing else running (pinned to the server core like every server when pinning is on); tsx's transform cache and the OS file cache were as earlier runs left them.",
  ];
  return section(
    '4. Cold start and memory',
    intro,
    table(
      ['figure', 'value', 'target', 'result'],
      [
        ['cold `npm start` (`tsx gateway/main.ts`, fresh DATA_DIR, NODE_ENV unset, key generated) to the first GET /health 200, polled every 50 ms', ...cold],
        ['VmRSS of the all-in-one rail after start, before load', `${memory.idleMb.toFixed(0)} MB`, '—', '—'],
        [`highest VmRSS of the all-in-one rail during sections 1-2 (sampled every 100 ms, ${memory.samples} samples)`, `${memory.maxMb.toFixed(0)} MB`, '—', '—'],
      ],
    ),
  );
}

function paidLabel(run: PaidRun): string {
  return `x402: a verified payment each, settled on chain, ${run.connections} connection${run.connections === 1 ? '' : 's'} (${count(run.payments)} requests)`;
}

/** Section 5 alone (BENCH_ONLY=access prints it; the full report includes it). */
export function accessSection(access: AccessFigures): string[] {
  // Two significant digits below 0.1x, where two decimals would read 0.00x.
  const ratio = (value: number) => (value >= 0.1 ? times(value) : `${value.toPrecision(2)}x`);
  const row = (path: string, figures: Figures) => [
    path,
    rate(figures),
    String(figures.p50),
    String(figures.p99),
    String(figures.errors),
    ratio(figures.requestsPerSecond / access.baseline.requestsPerSecond),
  ];
  const paidRuns = [access.paidSequential, access.paid];
  const intro = [
    `All against one all-in-one rail (embedded chain and PGlite, NODE_ENV=production) on GET ${CLIMATE_PATH}, whose report (${count(access.reportBytes)} bytes of JSON) one paid request put in the 60-minute cache first, so every 200 below is served from the cache. An error is a socket error or an answer of another status than the path's.`,
    '',
    '- 402: no header; the rail answers the x402 payment descriptor (requirements and the report preview). Every answer must be 402.',
    `- x402: each request carries a different X-PAYMENT, an EIP-3009 authorization signed before the run by one of ${access.payers} funded development accounts (a payment is used once): verified (signature, validity, payer balance on the embedded chain), claimed in the database, then settled on chain (transferWithAuthorization, X-PAYMENT-RESPONSE). After a warm-up of its own payments, exactly the stated number of requests was sent (autocannon \`amount\`; at most ${count(MAX_PAYMENTS)}, fewer when the warm-up's rate would not send them within half of a payment's ${access.validitySeconds} s validity); req/s is the answers over the time from the start to the last answer. Every answer must be 200. Before that load, ${count(access.paidSequential.payments)} payments were sent one at a time on one connection (no warm-up): the latency of one paid call alone. Each settlement mines a block of the embedded chain, and the settling account sends its transactions in turn.`,
    '- API key: X-API-Key of a key created with `npm run keys -- create` before the rail started, its limit (100,000,000 a minute) never reached: the key is looked up and counted per request, X-RateLimit-* set. Every answer must be 200.',
    `- Baseline, the same route unpriced: the product has no unpriced twin of this route, so the baseline is bare Fastify (bench/targets.ts \`bare-fastify\`) answering GET ${CLIMATE_PATH} with the report JSON captured from the paid answer (parsed once, serialised per request): no access control, no cache read, no database. Its ratio is the cost of the whole paid route (access control, the cache read in the database, the rail's plugins), not of access control alone.`,
  ];
  const failures = paidRuns
    .filter((run) => run.unexpected)
    .map((run) => `- ${paidLabel(run)}: ${count(run.figures.errors)} errors; the first answer that was not 200: \`${run.unexpected!.replace(/`/g, "'").slice(0, 160)}\``);
  return section('5. Access control on a paid route vs the same JSON unpriced', intro, [
    ...table(
      ['path', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs baseline req/s'],
      [
        row('402: no payment', access.unpaid),
        ...paidRuns.map((run) => row(paidLabel(run), run.figures)),
        row('API key', access.apiKey),
        row('baseline: bare Fastify, the same JSON, unpriced', access.baseline),
      ],
    ),
    ...(failures.length > 0 ? ['', ...failures] : []),
  ]);
}

const ms = (value: number) => value.toFixed(3);
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** Section 6 alone (BENCH_ONLY=compliance prints it; the full report includes it). */
export function complianceSection(figures: ComplianceFigures, tally = new Tally()): string[] {
  const { screening: s } = figures;
  const latencyRow = (label: string, latency: Latency) => [
    label,
    count(latency.screens),
    percent(latency.cachedShare),
    count(Math.round(latency.namesPerSecond)),
    ms(latency.p50),
    ms(latency.p99),
    ms(latency.max),
    ms(latency.cpuP50),
    ms(latency.cpuP99),
    tally.check(latency.p99 < SCREEN_P99_TARGET_MS),
  ];
  const work = (label: string, spread: { mean: number; max: number }, of: number) => [label, spread.mean.toFixed(1), count(spread.max), count(of), percent(spread.mean / of)];
  const served = (label: string, of: Figures) => [label, rate(of), String(of.p50), String(of.p99), String(of.errors)];
  const evaluation = (label: string, e: typeof figures.sanctions) => [
    label,
    String(e.threshold),
    String(e.pairs),
    String(e.truePositives),
    String(e.falsePositives),
    String(e.falseNegatives),
    String(e.trueNegatives),
    e.precision.toFixed(3),
    e.recall.toFixed(3),
  ];
  const queries = s.queries.pairNames + s.queries.leiNames;
  const intro = [
    `Screening runs in the bench process, on one thread (pinned to the load core when pinning is on), against the shipped OFAC SDN list: ${count(s.entries)} entries, ${count(s.indexedNames)} names and aliases in the screening index (${count(s.vocabularyTokens)} distinct tokens); the CSV files parsed in ${s.loadMs.toFixed(0)} ms, the index built in ${s.buildMs.toFixed(0)} ms. A screen is \`screenName(name)\` at the sanctions threshold 0.70 without a limit, every match returned, each timed alone (performance.now).`,
    `The query set: ${count(queries)} distinct names, ${count(s.queries.pairNames)} from both sides of the labelled pairs (data/name-pairs.json) and ${count(s.queries.leiNames)} legal names of the GLEIF snapshot (vendor-like); ${count(s.matched)} of them match at least one SDN entry. After ${count(WARMUP_NAMES)} other names (PEP records) as a warm-up, each query name is screened once ("first screen": tokens not yet in the index's cache of recent query tokens are compared with the vocabulary), then ${WARM_PASSES} times more ("repeated"). The cache keeps the similar tokens of recent query tokens (its share of each pass in the table), so "repeated" is the rate of a screen whose tokens were seen recently. Names/s is the names over the wall time of the passes; the CPU columns are the process's CPU time per screen (process.cpuUsage), which leaves out the time the screen waited for its core on a loaded machine; the target is held against the wall time.`,
  ];
  const server = [
    'VoP and the vendor query against one all-in-one rail (embedded chain and PGlite, NODE_ENV=production), with a wallet registered by the admin under an active LEI of the GLEIF snapshot and an API key created with `npm run keys -- create` before the rail started (section 5 measured the x402 path). Every VoP answer records the check in the database, behind the answer (the write-behind queue of the VoP history, within 100 ms; decision 0096). An error is a socket error or an answer other than 200.',
    `The vendor query, for \`${figures.vendorBody}\`: POST /compliance/vendor-risk with that body (SDN names and addresses, PEP, FATF, the ownership chain, VoP of the wallet, the entity ESG score), and the \`vendorAssessment\` query through /graphql with those variables, asking for the score, the PEP screen, the VoP (paid by the API key, so recorded too), and the legal entity's ownership chain, ESG score and the fee of a ${count(FEE_AMOUNT_USD)} USD payment to it (fees' \`paymentFee\`: one request planned over compliance and fees).`,
  ];
  return section('6. Compliance: sanctions screening, VoP, the vendor query, the matcher', intro, [
    ...table(
      ['screens', 'names', 'query tokens from the cache', 'names/s', 'p50 ms', 'p99 ms', 'max ms', 'CPU p50 ms', 'CPU p99 ms', `target p99 < ${SCREEN_P99_TARGET_MS} ms (wall)`],
      [latencyRow('first screen of each name', s.first), latencyRow(`repeated (${WARM_PASSES} passes)`, s.repeated)],
    ),
    '',
    'The index at work, per first screen: what was compared against what the list holds.',
    '',
    ...table(
      ['per screen', 'mean', 'max', 'of', 'mean share'],
      [
        work('names reached (holding a token similar to a query token)', s.namesReached, s.indexedNames),
        work('names scored in full (their upper bound reaches 0.70)', s.namesScored, s.indexedNames),
        work('token comparisons (Jaro-Winkler, after the similar-token table, bigram blocking and the letter bound; decision 0097)', s.tokenComparisons, s.vocabularyTokens),
      ],
    ),
    '',
    ...server,
    '',
    ...table(
      ['request', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
      [
        ...figures.vop.map((run) => served(`POST /compliance/vop/verify, X-API-Key, submittedName "${run.submittedName}": ${run.result}`, run.figures)),
        ...figures.vendor.map((run) => (run.figures ? served(`${run.request}: ${run.verdict ?? ''}`, run.figures) : [run.request, `cannot serve: ${run.problem ?? 'unknown'}`, '', '', ''])),
      ],
    ),
    '',
    'Precision and recall of the name matcher (nameSimilarity) on the labelled pairs, a pair predicted a match at or above the threshold.',
    '',
    ...table(['threshold of', 'threshold', 'pairs', 'TP', 'FP', 'FN', 'TN', 'precision', 'recall'], [evaluation('sanctions', figures.sanctions), evaluation('PEP', figures.pep)]),
  ]);
}

/** Section 7 alone (BENCH_ONLY=payments prints it; the full report includes it). */
export function paymentsSection(outcome: PaymentsOutcome, tally = new Tally()): string[] {
  const title = '7. Payments on PostgreSQL: initiation end to end, idempotent replays, the callback outbox';
  if ('problem' in outcome) return section(title, [`Not measured: ${outcome.problem}`], []);
  const { figures } = outcome;
  const { callbacks: c } = figures;
  const runCells = (label: string, run: PaymentRun, target?: number) => [
    `${label} (${count(run.answered)} of ${count(run.requests)} answered${run.cut ? ', cut at the run bound' : ''})`,
    rate(run.figures),
    String(run.figures.p50),
    String(run.figures.p99),
    String(run.figures.errors),
    `${count(run.settled)} (${percent(run.settled / Math.max(1, run.answered))})`,
    run.railCpuMsPerAnswer === undefined ? '—' : run.railCpuMsPerAnswer.toFixed(2),
    run.railCpuMsPerAnswer === undefined || run.railCpuMsPerAnswer === 0 ? '—' : count(Math.round(1000 / run.railCpuMsPerAnswer)),
    target === undefined ? '—' : `>= ${count(target)}/s`,
    target === undefined ? '—' : tally.check(run.figures.requestsPerSecond >= target && run.figures.errors === 0 && !run.cut),
  ];
  const intro = [
    `One all-in-one rail (\`gateway/main.ts\`, NODE_ENV=production: compliance, fees and payments in one process, the embedded chain and the rail's in-process settlement) on ${figures.database}, in a schema created for the run and dropped after it (DATABASE_SCHEMA; the pool's default size). Before it started, the bench migrated that schema and created an institution bearer key whose per-minute limit is never reached (each request is still looked up and counted); once it listened, the admin registered a creditor wallet under an active LEI of the GLEIF snapshot.`,
    '',
    `- Fresh payments: POST /integration/payments/initiate, native body of 10.00 USD to the registered creditor, each request with its own tmsReference and debtor wallet (bodies built before the run; autocannon \`amount\`, exactly one request per body). Each runs the whole flow: the idempotency claim, VoP through the compliance subgraph, AML screening, the fee, the settlement on the embedded chain and the stored result. After a warm-up of ${count(FRESH_WARMUP)} payments. SETTLED is the share of answers whose status is SETTLED.`,
    `- Replays: the exact bodies of the ${count(FRESH_PAYMENTS)} fresh payments, each sent again ${count(REPLAYS / FRESH_PAYMENTS)} times in rotation (${count(REPLAYS)} requests, after ${count(REPLAY_WARMUP)} replays of one settled payment as a warm-up): the stored result is answered, nothing is sent. The first replay of each reads its final row from PostgreSQL; the rail keeps final rows in memory (decision 0039), so the others are answered from there.`,
    `- Callbacks: ${count(CALLBACK_PAYMENTS)} fresh payments with a callbackUrl on a Fastify receiver in the bench process (loopback, so CALLBACK_ALLOW_PRIVATE_TARGETS=true), then the outbox rows of those payments polled in PostgreSQL every 100 ms until all are DELIVERED or FAILED, at most ${CALLBACK_WAIT_MS / 1000} s after the last initiation was answered. The rate is the delivered rows over the time from the first initiation to the last row delivered; the receiver checks every X-Rail-Signature with the rail's WEBHOOK_SIGNING_KEY. The rail's worker is woken by each commit of a callback, claims up to 20 due rows a run and starts the next run at once after a full one (decision 0024 §12), so the rate follows the payments' own.`,
    '',
    'Every run is bounded: a fixed number of requests, each cut after 30 s, the run stopped after 180 s. Req/s is the answers over the time from the start to the last answer; an error is a socket error or an answer other than 200. The target is held against req/s, with no error. "Rail CPU ms per answer" is the CPU time (user + system, /proc/<pid>/stat) the rail\'s process used during the run over its answers: it leaves out the time spent waiting for a core on a loaded machine, and PostgreSQL\'s own CPU (another process); "1000 / CPU ms" is the rate that CPU cost alone would allow on one free core, an upper bound and not a measurement.',
  ];
  return section(title, intro, [
    ...table(
      ['request', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'SETTLED', 'rail CPU ms per answer', '1000 / CPU ms', 'target', 'result'],
      [
        runCells('fresh native payment, end to end', figures.fresh, FRESH_TARGET_PER_SECOND),
        runCells('replay of a settled payment', figures.replays, REPLAY_TARGET_PER_SECOND),
        runCells('fresh payment with a callbackUrl (the callback run)', c.initiation),
      ],
    ),
    ...(figures.fresh.transactions
      ? [
          '',
          `During the fresh run the embedded chain mined ${count(figures.fresh.transactions)} blocks, one per settlement transaction: ${paymentsPerTransaction(figures.fresh)} payments a transaction (decision 0041: under load a transaction leaves at most every SETTLEMENT_LINGER_MS, with the payments ready by then).`,
        ]
      : []),
    ...(figures.fresh.unexpected ? ['', `First fresh answer other than 200: \`${figures.fresh.unexpected.replace(/`/g, "'").slice(0, 160)}\``] : []),
    ...(figures.replays.unexpected ? ['', `First replay answer other than 200: \`${figures.replays.unexpected.replace(/`/g, "'").slice(0, 160)}\``] : []),
    '',
    ...table(
      ['callback outbox', 'value'],
      [
        [
          'rows DELIVERED / FAILED / PENDING at the end',
          `${count(c.delivered)} / ${count(c.failed)} / ${count(c.pending)} of ${count(c.payments)}${c.waitedOut ? ` (the ${CALLBACK_WAIT_MS / 1000} s wait ran out)` : ''}`,
        ],
        ['first initiation to the last row delivered', `${c.seconds.toFixed(1)} s`],
        ['deliveries per second (rows delivered / that time)', c.deliveriesPerSecond.toFixed(1)],
        ['at the receiver: deliveries, valid signatures, repeats', `${count(c.received)}, ${count(c.validSignatures)}, ${count(c.duplicates)}`],
        ['at the receiver: first to last delivery', `${c.receiverSeconds.toFixed(1)} s, ${c.receiverPerSecond.toFixed(1)}/s`],
      ],
    ),
  ]);
}

/** The run's targets (issue 27), each met or not: first in the report, and printed last by npm run bench. */
export function targetsSection(results: BenchResults): string[] {
  const rows = issueTargets(results);
  return section(`Targets: ${targetsMet(rows)} met`, ['The targets of issue 27, each against the figure of this run; the sections below hold the measurements behind each row.'], targetsTable(rows));
}

export function renderReport(results: BenchResults): string {
  const tally = new Tally();
  const sections = [
    restSection(results.rest, tally),
    graphQLSection(results.graphql, results.hostile, tally),
    splitSection(results.split, tally),
    startSection(results.coldStart, results.memory, tally),
    accessSection(results.access),
    complianceSection(results.compliance, tally),
    paymentsSection(results.payments, tally),
    intelligenceSection(results.intelligence),
  ];
  return [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts) from one run; figures, not assertions (CI never runs the bench). Re-run it to refresh this file.',
    '',
    `- Date: ${results.startedAt.toISOString()}`,
    `- Commit: ${describeCommit()}`,
    ...describeMachine(results.pinning, results.loadAtStart),
    `- Method: autocannon, ${CONNECTIONS} connections, ${SECONDS} s per figure after a ${WARMUP_SECONDS} s warm-up of the same load, loopback 127.0.0.1; every server a process of its own, measured one at a time; the run took ${Math.round(results.durationSeconds)} s`,
    '- Servers: the all-in-one rail is `gateway/main.ts` with NODE_ENV=production and LOG_LEVEL=warn, like the baselines (bench/targets.ts) in production mode',
    `- Targets met: ${targetsMet(issueTargets(results))} (issue 27's, below); the sections' own target columns: ${tally.met} of ${tally.total}`,
    '',
    ...targetsSection(results),
    ...sections.flat(),
  ].join('\n');
}
