import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { table } from '../markdown.js';
import { ROOT } from '../processes.js';
import { describeCommit, replaceSection, REPORT_PATH, SOAK_HEADING } from '../report-file.js';
import type { GroupFigures } from './figures.js';
import { REQUEST_KINDS } from './records.js';
import type { SoakResult } from './soak.js';
import { PHASES, RECOVERY_MS } from './timeline.js';

const ms = (value: number) => Math.round(value).toLocaleString('en-US');
const share = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);

function row(label: string, figures: GroupFigures, extra: string[] = []): string[] {
  return [
    label,
    figures.requests.toLocaleString('en-US'),
    figures.perSecond.toFixed(1),
    ms(figures.p50Ms),
    ms(figures.p99Ms),
    share(figures.unexpected, figures.requests),
    ...extra,
    figures.top.join('; ') || '—',
  ];
}

function faultLines(result: SoakResult): string[] {
  const byKind = Map.groupBy(result.faults, (event) => event.kind);
  return [...byKind.entries()].map(([kind, events]) => {
    const down = events.map((event) => ((event.restoredAt - event.startedAt) / 1000).toFixed(1));
    const failed = events.filter((event) => event.error).length;
    return `${kind} × ${events.length} (down ${down.join(', ')} s until restored${failed ? `; ${failed} failed to come back` : ''})`;
  });
}

/** Answers 500 by kind: DESIGN.md §6 allows none (a failing dependency is a 503), so they are named even though no check fails on them. */
function internalErrors(result: SoakResult): string {
  const byKind = Object.entries(result.figures.byKind).filter(([, figures]) => figures.internalErrors > 0);
  if (byKind.length === 0) return 'none';
  return byKind.map(([kind, figures]) => `${kind} ${figures.internalErrors}`).join(', ');
}

/** The Soak section of docs/benchmarks.md, also what `npm run soak` prints. */
export function renderSoakSection(result: SoakResult): string {
  const { options, figures } = result;
  const processors = cpus();
  const phaseRows = PHASES.map((phase) => row(phase, figures.byPhase[phase], [figures.phaseSeconds[phase].toFixed(0), String(figures.shedByPhase[phase])]));
  const kindRows = REQUEST_KINDS.map((kind) => row(kind, figures.byKind[kind]));
  const checkRows = result.checks.map((check) => [check.name, check.problems.length === 0 ? 'passed' : `**failed** (${check.problems.length})`, check.notes.join('; ')]);
  return [
    SOAK_HEADING,
    '',
    'Written by `npm run soak` (bench/soak/, decision 0089): a cluster (gateway/cluster) on this machine under an open-loop mix of reads, paid calls and payments with callbacks, while a process of every kind is killed (SIGKILL) and restarted and the PostgreSQL and Redis connections are cut through local TCP proxies; then the database and the chain are reconciled with what the clients saw.',
    '',
    `- Date: ${result.startedAt.toISOString()}; commit: ${describeCommit()}`,
    `- Machine: ${processors[0]?.model.trim() ?? 'unknown'} × ${processors.length}, ${(totalmem() / 1024 ** 3).toFixed(1)} GB; Node ${process.version}; ${type()} ${release()}`,
    `- Command: \`npm run soak -- --minutes ${options.minutes} --gateways ${options.gateways} --replicas ${options.replicas} --rate ${options.rate} --in-flight ${options.maxInFlight} --seed ${options.seed}\``,
    `- Cluster: ${result.processes} processes, started in ${result.clusterStartSeconds.toFixed(1)} s; load ${figures.loadSeconds.toFixed(0)} s, ${result.load.started.toLocaleString('en-US')} requests started, ${result.load.shed.length} shed; the reconcilers took ${result.settleSeconds.toFixed(0)} s after it; ${result.wallSeconds.toFixed(0)} s in all`,
    `- Faults: ${faultLines(result).join('; ')}`,
    `- Answers 500: ${internalErrors(result)}`,
    `- Reconciliation: **${result.passed ? 'passed' : 'failed'}**`,
    '',
    ...table(['check', 'result', 'counts'], checkRows),
    '',
    `Per phase ("fault": from a kill or a cut until the process listens or the proxy accepts again; "recovery": the ${RECOVERY_MS / 1000} s after; a request counts where it started). Unexpected: an answer other than the one the request needs, or none.`,
    '',
    ...table(['phase', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'unexpected', 'seconds', 'shed', 'most common unexpected'], phaseRows),
    '',
    'Per kind, over the whole load:',
    '',
    ...table(['kind', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'unexpected', 'most common unexpected'], kindRows),
    '',
  ].join('\n');
}

/** The problems, check by check: what `npm run soak` prints when the reconciliation failed. */
export function renderProblems(result: SoakResult): string {
  return result.checks
    .filter((check) => check.problems.length > 0)
    .map((check) => [`FAILED: ${check.name}`, ...check.problems.map((problem) => `  - ${problem}`)].join('\n'))
    .join('\n');
}

/** Replaces (or adds) the Soak section of docs/benchmarks.md. */
export function writeSoakSection(result: SoakResult): string {
  const path = join(ROOT, REPORT_PATH);
  writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), SOAK_HEADING, renderSoakSection(result)));
  return REPORT_PATH;
}
