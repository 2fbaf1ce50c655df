import { COLD_START_TARGET_MS, FIRST_PROGRESS_TARGET_MS, IDLE_RSS_TARGET_MB } from './cold-start.js';
import { SCREEN_P99_TARGET_MS } from './compliance.js';
import type { Figures } from './load.js';
import { rate, table, times } from './markdown.js';
import type { BenchResults } from './results.js';
import type { SplitQuery } from './split-layout.js';

/**
 * The targets of issue 27, each with the figure of this run and whether it is met: the table at the
 * top of docs/benchmarks.md and the last thing `npm run bench` prints. The sections below it hold the
 * figures each row is taken from.
 */

export interface TargetRow {
  measure: string;
  value: string;
  target: string;
  /** undefined: not measured in this run (the value says why). */
  met: boolean | undefined;
}

const SPLIT_STOCK_TARGET = 3;
const P99_TARGET_MS = 100;
const COMPOSED_RATE_TARGET = 1000;

const notMeasured = (measure: string, target: string, why: string): TargetRow => ({ measure, value: `not measured: ${why}`, target, met: undefined });

function restRows(results: BenchResults): TargetRow[] {
  return results.rest.flatMap((row) => {
    const ratio = row.rail.requestsPerSecond / row.baseline.requestsPerSecond;
    const target = row.target;
    if (target === undefined) return [];
    return [{ measure: `REST ${row.label} vs bare Fastify`, value: times(ratio), target: `>= ${times(target)}`, met: ratio >= target && row.rail.errors === 0 }];
  });
}

function splitRows(query: SplitQuery): TargetRow[] {
  const ours = query.ours.figures;
  const stockTarget = `>= ${times(SPLIT_STOCK_TARGET)}`;
  const name = `split layout, ${query.query}`;
  if (!ours) return [notMeasured(`${name}: ours vs stock @apollo/gateway`, stockTarget, `ours cannot serve it (${query.ours.problem ?? 'unknown'})`)];
  const rows: TargetRow[] = [];
  const stock = query.stock.figures;
  rows.push(
    stock
      ? {
          measure: `${name}: ours vs stock @apollo/gateway`,
          value: times(ours.requestsPerSecond / stock.requestsPerSecond),
          target: stockTarget,
          met: ours.requestsPerSecond / stock.requestsPerSecond >= SPLIT_STOCK_TARGET,
        }
      : notMeasured(`${name}: ours vs stock @apollo/gateway`, stockTarget, 'stock cannot serve it'),
  );
  const mercurius = query.mercurius.figures ? query.mercurius : query.mercuriusSingleService;
  rows.push(
    mercurius?.figures
      ? {
          measure: `${name}: ours vs ${mercurius.gateway}`,
          value: times(ours.requestsPerSecond / mercurius.figures.requestsPerSecond),
          target: '> 1x',
          met: ours.requestsPerSecond > mercurius.figures.requestsPerSecond,
        }
      : notMeasured(`${name}: ours vs mercurius`, '> 1x', 'mercurius cannot serve it'),
  );
  rows.push({ measure: `${name}: our p99 at 50 connections`, value: `${ours.p99} ms`, target: `< ${P99_TARGET_MS} ms`, met: ours.p99 < P99_TARGET_MS });
  return rows;
}

function composedRow(measure: string, figures: Figures | undefined, why: string): TargetRow {
  const target = `>= ${COMPOSED_RATE_TARGET.toLocaleString('en-US')} req/s, p99 < ${P99_TARGET_MS} ms`;
  if (!figures) return notMeasured(measure, target, why);
  return {
    measure,
    value: `${rate(figures)} req/s, p99 ${figures.p99} ms, ${figures.errors} errors`,
    target,
    met: figures.requestsPerSecond >= COMPOSED_RATE_TARGET && figures.p99 < P99_TARGET_MS && figures.errors === 0,
  };
}

function composedRows(results: BenchResults): TargetRow[] {
  const vendor = results.compliance.vendor.filter((run) => run.request.includes('vendorAssessment'));
  const vendorRows = vendor.length
    ? vendor.map((run) => composedRow(`${run.request}, caches warm`, run.figures, run.problem ?? 'unknown'))
    : [composedRow('vendorAssessment through /graphql, caches warm', undefined, 'the bench did not run it')];
  return [...vendorRows, composedRow('riskDashboard through /graphql, caches warm', results.intelligence.dashboard, 'the bench did not run it')];
}

function startRows(results: BenchResults): TargetRow[] {
  const { coldStart, memory } = results;
  // The cold start's own reading (NODE_ENV unset, 2 s after its first 200), else the rail's before section 1.
  const idleMb = coldStart.idleRssMb ?? memory.idleMb;
  const startTarget = `< ${COLD_START_TARGET_MS / 1000} s`;
  const progressTarget = `< ${FIRST_PROGRESS_TARGET_MS / 1000} s`;
  return [
    coldStart.ms === undefined
      ? notMeasured('first `npm start` of a fresh DATA_DIR to /health 200', startTarget, coldStart.problem ?? 'it never answered')
      : { measure: 'first `npm start` of a fresh DATA_DIR to /health 200', value: `${(coldStart.ms / 1000).toFixed(2)} s`, target: startTarget, met: coldStart.ms < COLD_START_TARGET_MS },
    coldStart.firstProgressMs === undefined
      ? notMeasured('first `npm start`: its first line of progress', progressTarget, 'it printed nothing')
      : {
          measure: 'first `npm start`: its first line of progress',
          value: `${(coldStart.firstProgressMs / 1000).toFixed(2)} s`,
          target: progressTarget,
          met: coldStart.firstProgressMs < FIRST_PROGRESS_TARGET_MS,
        },
    { measure: 'idle VmRSS of the all-in-one rail on the embedded defaults', value: `${idleMb.toFixed(0)} MB`, target: `< ${IDLE_RSS_TARGET_MB} MB`, met: idleMb < IDLE_RSS_TARGET_MB },
  ];
}

function screeningRow(results: BenchResults): TargetRow {
  const first = results.compliance.screening.first;
  return {
    measure: 'sanctions screening, first screen of a name, p99 on one core (wall)',
    value: `${first.p99.toFixed(3)} ms`,
    target: `< ${SCREEN_P99_TARGET_MS} ms`,
    met: first.p99 < SCREEN_P99_TARGET_MS,
  };
}

export function issueTargets(results: BenchResults): TargetRow[] {
  return [...restRows(results), ...results.split.flatMap(splitRows), ...composedRows(results), screeningRow(results), ...startRows(results)];
}

const verdict = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? 'met' : '**not met**');

/** The summary table; the sections' own tables give the figures behind each row. */
export function targetsTable(rows: readonly TargetRow[]): string[] {
  return table(
    ['measure', 'this run', 'target', 'result'],
    rows.map((row) => [row.measure, row.value, row.target, verdict(row.met)]),
  );
}

export function targetsMet(rows: readonly TargetRow[]): string {
  return `${rows.filter((row) => row.met === true).length} of ${rows.length}`;
}
