import { loadConfig, type SubgraphName } from '../platform/config.js';
import { COMPOSED_SUBGRAPHS } from './compose.js';
import { buildServer, type ServerOptions } from './server.js';

/**
 * Entry point.
 *   tsx gateway/main.ts                 all-in-one: every subgraph, the gateway, REST, health, metrics
 *   tsx gateway/main.ts serve <name>    one subgraph alone (distributed layout)
 *   tsx gateway/main.ts serve gateway   the gateway alone, reaching subgraphs at SUBGRAPH_URLS
 */
function optionsFromArguments(argv: string[]): Omit<ServerOptions, 'config'> {
  const [command, target] = argv;
  if (command === undefined) return {};
  if (command !== 'serve' || !target) throw new Error('usage: main.ts [serve <subgraph|gateway>]');
  if (target === 'gateway') return { subgraphs: [], gateway: true };
  if (!COMPOSED_SUBGRAPHS.includes(target as SubgraphName)) {
    throw new Error(`unknown subgraph "${target}"; one of: ${COMPOSED_SUBGRAPHS.join(', ')}, gateway`);
  }
  return { subgraphs: [target as SubgraphName], gateway: false };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await buildServer({ config, ...optionsFromArguments(process.argv.slice(2)) });
  const address = await server.app.listen({ port: config.port, host: config.host });
  const base = address.replace('127.0.0.1', 'localhost');
  const lines = [
    `settlement-rail-graph listening on ${base} (database: ${server.platform.database.driver})`,
    ...(server.subgraphs.length === COMPOSED_SUBGRAPHS.length ? [`  gateway      ${base}/graphql`] : []),
    ...server.subgraphs.map((subgraph) => `  subgraph     ${base}/subgraphs/${subgraph.name}/graphql`),
    ...(server.subgraphs.some((s) => s.name === 'fees') ? [`  REST         ${base}/stability  ${base}/esg`] : []),
    ...(server.subgraphs.some((s) => s.name === 'forecast') ? [`  REST         ${base}/forecast   MCP ${base}/forecast/mcp`] : []),
    `  health       ${base}/health`,
    `  metrics      ${base}/metrics`,
  ];
  console.log(lines.join('\n'));
  const shutdown = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
