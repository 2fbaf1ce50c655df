import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine } from '../platform/cli.js';
import { killAllNow, pinLoadGeneratorAndServers, removeTempFolders, ROOT, startRail, startTarget, stopAll, stopServers } from './processes.js';
import type { BenchResults } from './report.js';
import { sectionOf, SOAK_HEADING } from './report-file.js';

// The sections are imported once the command line is read (main below): each loads the rail's
// subgraphs, seconds of work that --help and a usage error do not need.
const sections = async () => {
  const [coldStart, compliance, graphql, intelligence, load, paid, payments, report, rest, splitLayout] = await Promise.all([
    import('./cold-start.js'),
    import('./compliance.js'),
    import('./graphql.js'),
    import('./intelligence.js'),
    import('./load.js'),
    import('./paid.js'),
    import('./payments.js'),
    import('./report.js'),
    import('./rest.js'),
    import('./split-layout.js'),
  ]);
  return { ...coldStart, ...compliance, ...graphql, ...intelligence, ...load, ...paid, ...payments, ...report, ...rest, ...splitLayout };
};
type Sections = Awaited<ReturnType<typeof sections>>;

/**
 * npm run bench: in one run with one load (autocannon, 50 connections, BENCH_SECONDS per figure
 * after a 2 s warm-up), on loopback:
 *   1. every REST route of the rail against bare Fastify answering the same JSON
 *   2. GraphQL through /graphql against naive Apollo, and the hostile request
 *   3. the split layout: our gateway, stock @apollo/gateway and mercurius over the same subgraphs
 *   4. a cold `npm start` to its first answer, and the rail's memory under the loads of 1-2
 *   5. access control on the paid report route: 402, x402 payments, an API key, against bare Fastify
 *   6. compliance: SDN screening per name, VoP by API key, the vendor query, the matcher's precision and recall
 *   7. payments on PostgreSQL: fresh native payments end to end, idempotent replays, the callback outbox
 *   8. the intelligence signals uncached (computed in-process) and cached (over HTTP), and riskDashboard
 * then writes docs/benchmarks.md and prints it. BENCH_ONLY=access (npm run bench:access),
 * BENCH_ONLY=compliance (npm run bench:compliance) or BENCH_ONLY=payments (npm run bench:payments)
 * runs section 5, 6 or 7 alone and prints it, leaving docs/benchmarks.md as it is. Every child process is
 * killed at the end, even on failure. Figures, not assertions: CI never runs this.
 */

/** Sections 1-2 against one all-in-one rail, its VmRSS sampled meanwhile. */
async function benchAllInOne({
  startBareFastify,
  sampleResidentMemory,
  benchRest,
  benchGraphQL,
  benchHostileRequest,
}: Sections): Promise<Pick<BenchResults, 'rest' | 'graphql' | 'hostile' | 'memory'>> {
  const [rail, naive] = await Promise.all([startRail('all-in-one rail', [], { NODE_ENV: 'production' }), startTarget('naive-apollo')]);
  const bare = await startBareFastify(rail);
  try {
    const { result, memory } = await sampleResidentMemory(rail.pid, async () => {
      console.log('\n1. REST vs bare Fastify');
      const rest = await benchRest(rail, bare);
      console.log('\n2. GraphQL vs naive Apollo');
      const graphql = await benchGraphQL(rail, naive);
      const hostile = await benchHostileRequest(rail);
      return { rest, graphql, hostile };
    });
    return { ...result, memory };
  } finally {
    await stopServers([rail, naive, bare]);
  }
}

/** BENCH_ONLY: unset for the whole run, `access`, `compliance`, `payments` or `intelligence` for section 5, 6, 7 or 8 alone. */
function onlySection(): 'access' | 'compliance' | 'payments' | 'intelligence' | undefined {
  const only = process.env.BENCH_ONLY;
  if (only === undefined || only === '') return undefined;
  if (only === 'access' || only === 'compliance' || only === 'payments' || only === 'intelligence') return only;
  throw new Error(`BENCH_ONLY may be unset, "access", "compliance", "payments" or "intelligence", not "${only}"`);
}

const USAGE = `usage: npm run bench            every section, then docs/benchmarks.md is rewritten
       npm run bench:access     section 5 alone (BENCH_ONLY=access), printed only
       npm run bench:compliance section 6 alone (BENCH_ONLY=compliance), printed only
       npm run bench:payments   section 7 alone (BENCH_ONLY=payments) on PostgreSQL at DATABASE_URL
                                (default postgres://postgres@127.0.0.1:5432/test), printed only
       npm run bench:intelligence section 8 alone (BENCH_ONLY=intelligence), printed only
Measures the hot paths on loopback with autocannon (BENCH_SECONDS per figure): figures, not a test.`;

/** BENCH_ONLY: one section, printed; docs/benchmarks.md is left as it is. */
async function runOneSection(only: NonNullable<ReturnType<typeof onlySection>>, loaded: Sections, loadAtStart: number): Promise<void> {
  const { accessSection, benchAccess, complianceSection, benchCompliance, intelligenceSection, benchIntelligence, paymentsSection, benchPayments } = loaded;
  if (only === 'access') {
    console.log('\n5. access control (alone: docs/benchmarks.md is left as it is)');
    console.log(`\n${accessSection(await benchAccess()).join('\n')}`);
  }
  if (only === 'compliance') {
    console.log('\n6. compliance (alone: docs/benchmarks.md is left as it is)');
    console.log(`\n${complianceSection(await benchCompliance()).join('\n')}`);
  }
  if (only === 'intelligence') {
    console.log('\n8. intelligence (alone: docs/benchmarks.md is left as it is)');
    console.log(`\n${intelligenceSection(await benchIntelligence()).join('\n')}`);
  }
  if (only === 'payments') {
    console.log('\n7. payments on PostgreSQL (alone: docs/benchmarks.md is left as it is)');
    console.log(`\n${paymentsSection(await benchPayments()).join('\n')}`);
    console.log(`\n1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${cpus().length} cores`);
  }
}

async function main(): Promise<void> {
  parseCommandLine({ usage: USAGE });
  const startedAt = new Date();
  const only = onlySection();
  const loaded = await sections();
  const {
    CONNECTIONS,
    SECONDS,
    WARMUP_SECONDS,
    benchAccess,
    benchCompliance,
    benchIntelligence,
    benchPayments,
    measureColdStart,
    SPLIT_LAYOUT_NOTE,
    benchSplitLayout,
    renderReport,
    targetsSection,
    REPORT_PATH,
  } = loaded;
  const pinning = pinLoadGeneratorAndServers();
  const loadAtStart = loadavg()[0]!;
  console.log(`autocannon, ${CONNECTIONS} connections, ${SECONDS} s per figure after ${WARMUP_SECONDS} s warm-up, loopback; pinning: ${pinning}; 1-minute load average ${loadAtStart.toFixed(1)}`);

  if (only) {
    await runOneSection(only, loaded, loadAtStart);
    return;
  }

  console.log('\n4. cold start (first, on a quiet machine)');
  const coldStart = await measureColdStart();
  console.log(`  ${coldStart.ms === undefined ? `failed: ${coldStart.problem}` : `${(coldStart.ms / 1000).toFixed(2)} s to GET /health 200`}`);

  const allInOne = await benchAllInOne(loaded);

  console.log(`\n3. split layout (${SPLIT_LAYOUT_NOTE})`);
  const split = await benchSplitLayout();

  console.log('\n5. access control on the paid report route');
  const access = await benchAccess();

  console.log('\n6. compliance');
  const compliance = await benchCompliance();

  console.log('\n7. payments on PostgreSQL');
  const payments = await benchPayments();

  console.log('\n8. intelligence');
  const intelligence = await benchIntelligence();

  const results = {
    startedAt,
    pinning,
    loadAtStart,
    durationSeconds: (Date.now() - startedAt.getTime()) / 1000,
    coldStart,
    split,
    access,
    compliance,
    payments,
    intelligence,
    ...allInOne,
  };
  const report = renderReport(results);
  // The Soak section is npm run soak's (bench/soak/report.ts): a rewrite of the rest keeps it.
  const path = join(ROOT, REPORT_PATH);
  const soak = existsSync(path) ? sectionOf(readFileSync(path, 'utf8'), SOAK_HEADING) : undefined;
  writeFileSync(path, soak ? `${report.trimEnd()}\n\n${soak.trimEnd()}\n` : report);
  console.log(`\n${report}\n(written to ${REPORT_PATH})`);
  console.log(`\n${targetsSection(results).join('\n')}`);
}

process.on('exit', () => {
  killAllNow();
  removeTempFolders();
});
// The handler stays short: tsx's wrapper SIGKILLs a child that has not acknowledged a signal within
// 30 ms, and the acknowledgement goes out once the handler has returned.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAllNow();
    console.error(`${signal}: every server the bench started is killed`);
    setImmediate(() => process.exit(130));
  });
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopAll();
    process.exit();
  });
