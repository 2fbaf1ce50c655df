import { compare, type Comparison, graphQLProblem, progress } from './load.js';
import type { Server } from './processes.js';
import { FEE_QUOTE, graphQLLoad, HEAT_CHECK, HOSTILE_QUERY, PORTFOLIO_STRESS } from './workloads.js';

/** Section 2: GraphQL through the rail's /graphql against the naive Apollo baseline; the hostile request. */

export async function benchGraphQL(rail: Server, naive: Server): Promise<Comparison[]> {
  const rows: Comparison[] = [];
  for (const workload of [FEE_QUOTE, HEAT_CHECK, PORTFOLIO_STRESS]) {
    const railLoad = graphQLLoad(workload, '/graphql');
    const naiveLoad = graphQLLoad(workload, '/');
    for (const [server, load] of [
      [rail, railLoad],
      [naive, naiveLoad],
    ] as const) {
      const problem = await graphQLProblem(server.port, load);
      if (problem) throw new Error(`${server.name} does not answer ${workload.name}: ${problem}`);
    }
    rows.push(await compare(workload.name, workload.target, { name: 'rail /graphql', port: rail.port, load: railLoad }, { name: 'naive Apollo', port: naive.port, load: naiveLoad }));
  }
  return rows;
}

export interface HostileFigures {
  sizeKb: number;
  /** Time to refusal over 20 sequential requests, ms. */
  medianMs: number;
  maxMs: number;
  statuses: number[];
  /** GET /health while 10 of them are in flight. */
  healthMs: number;
  healthStatus: number;
}

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

export async function benchHostileRequest(rail: Server): Promise<HostileFigures> {
  const post = () => timed(`http://127.0.0.1:${rail.port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: HOSTILE_QUERY });
  const refusals: number[] = [];
  for (let round = 0; round < 20; round += 1) refusals.push((await post()).ms);
  const inFlight = Array.from({ length: 10 }, post);
  const health = await timed(`http://127.0.0.1:${rail.port}/health`);
  const statuses = [...new Set((await Promise.all(inFlight)).map((result) => result.status))];
  refusals.sort((a, b) => a - b);
  const figures = {
    sizeKb: Math.round(HOSTILE_QUERY.length / 1024),
    medianMs: refusals[10] ?? Number.NaN,
    maxMs: refusals[19] ?? Number.NaN,
    statuses,
    healthMs: health.ms,
    healthStatus: health.status,
  };
  progress(
    `9,000-field request (${figures.sizeKb} KB), refused`,
    `median ${figures.medianMs.toFixed(1)} ms, max ${figures.maxMs.toFixed(1)} ms, status ${statuses.join(',')}; /health meanwhile ${figures.healthMs.toFixed(1)} ms, ${figures.healthStatus}`,
  );
  return figures;
}
