import { SUBGRAPH_NAMES } from '../gateway/subgraphs.js';
import { bench, type Figures, graphQLProblem, progress } from './load.js';
import { type Server, startRail, startTarget, stopServers } from './processes.js';
import { FEE_QUOTE, graphQLLoad, type GraphQLWorkload, HEAT_CHECK } from './workloads.js';

/**
 * Section 3: the split layout. The fees and forecast subgraphs each in a process of their own
 * (`gateway/main.ts serve <name>`), then three gateways in turn over the SAME subgraph processes:
 * ours (`serve gateway`), stock @apollo/gateway, and @mercuriusjs/gateway.
 *
 * The subgraphs run without NODE_ENV=production: production refuses `_service { sdl }`, which
 * mercurius composes from. The gateways run with NODE_ENV=production.
 */

export const SPLIT_LAYOUT_NOTE =
  'subgraph processes run without NODE_ENV=production (production refuses `_service { sdl }`, which mercurius composes from); the same two subgraph processes serve all three gateways, which run with NODE_ENV=production';

export interface GatewayRun {
  gateway: string;
  /** Undefined when the gateway cannot serve the query. */
  figures?: Figures;
  /** Why it cannot (the probe's answer, or its start failure). */
  problem?: string;
}

export interface SplitQuery {
  query: string;
  ours: GatewayRun;
  stock: GatewayRun;
  mercurius: GatewayRun;
  /** When the fees+forecast mercurius gateway cannot serve the query: one composed of its subgraph alone. */
  mercuriusSingleService?: GatewayRun;
}

const WORKLOADS = [HEAT_CHECK, FEE_QUOTE];
/** The subgraphs of gateway/subgraphs.ts, named here so the bench process does not load them. */
// Every registered subgraph: the gateways load the whole supergraph and must reach each one.
const SUBGRAPHS: readonly string[] = SUBGRAPH_NAMES;
const MERCURIUS = `mercurius (${SUBGRAPHS.join('+')})`;

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

/** Probes (a GraphQL error answered 200 is not a success), then measures; or says why it cannot serve. */
async function runGateway(gateway: string, server: Server | Error, path: string, workload: GraphQLWorkload): Promise<GatewayRun> {
  if (server instanceof Error) return { gateway, problem: `did not start: ${oneLine(server)}` };
  const load = graphQLLoad(workload, path);
  const problem = await graphQLProblem(server.port, load);
  if (problem) {
    progress(`${gateway} ${workload.name}`, `cannot serve: ${problem}`);
    return { gateway, problem };
  }
  return { gateway, figures: await bench(`${gateway} ${workload.name}`, server.port, load) };
}

/** Starts a target, or returns its start failure (mercurius may fail to compose). */
function startOrFailure(start: Promise<Server>): Promise<Server | Error> {
  return start.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
}

/** A mercurius gateway composing only the subgraph that owns the query's root field. */
async function runSingleServiceMercurius(workload: GraphQLWorkload, subgraphUrls: string): Promise<GatewayRun> {
  const server = await startOrFailure(startTarget('mercurius-gateway', [workload.subgraph], { SUBGRAPH_URLS: subgraphUrls }));
  try {
    return await runGateway(`mercurius (${workload.subgraph} only)`, server, '/graphql', workload);
  } finally {
    if (!(server instanceof Error)) await stopServers([server]);
  }
}

async function startSubgraphs(): Promise<{ servers: Server[]; urls: string }> {
  // One after another: five starting at once on the one pinned core outran the start timeout.
  const servers: Server[] = [];
  for (const name of SUBGRAPHS) servers.push(await startRail(`${name} subgraph`, ['serve', name], {}));
  const urls = SUBGRAPHS.map((name, index) => `${name}=http://127.0.0.1:${servers[index]?.port}/subgraphs/${name}/graphql`);
  return { servers, urls: urls.join(',') };
}

export async function benchSplitLayout(): Promise<SplitQuery[]> {
  const subgraphs = await startSubgraphs();
  const started: Array<Server | Error> = [];
  try {
    const [ours, stock, mercurius] = await Promise.all([
      startOrFailure(startRail('our gateway', ['serve', 'gateway'], { NODE_ENV: 'production', SUBGRAPH_URLS: subgraphs.urls })),
      startOrFailure(startTarget('stock-apollo-gateway', [], { SUBGRAPH_URLS: subgraphs.urls })),
      startOrFailure(startTarget('mercurius-gateway', [SUBGRAPHS.join(',')], { SUBGRAPH_URLS: subgraphs.urls })),
    ]);
    started.push(ours, stock, mercurius);
    const queries: SplitQuery[] = [];
    for (const workload of WORKLOADS) {
      const row: SplitQuery = {
        query: workload.name,
        ours: await runGateway('ours', ours, '/graphql', workload),
        stock: await runGateway('stock @apollo/gateway', stock, '/', workload),
        mercurius: await runGateway(MERCURIUS, mercurius, '/graphql', workload),
      };
      if (!row.mercurius.figures) row.mercuriusSingleService = await runSingleServiceMercurius(workload, subgraphs.urls);
      queries.push(row);
    }
    return queries;
  } finally {
    await stopServers([...subgraphs.servers, ...started.filter((server): server is Server => !(server instanceof Error))]);
  }
}
