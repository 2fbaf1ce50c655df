import { writeFileSync } from 'node:fs';
import { parseCommandLine } from '../platform/cli.js';

parseCommandLine({
  usage: `usage: npm run compose
Recomposes schema/supergraph.graphql from schema/*.graphql, the subgraphs in the order of
gateway/subgraphs.ts (a test fails while it is stale; Apollo Router can load the same file).`,
});
// Imported once the command line is read: it loads every subgraph, which --help does not need.
const { composeSupergraph, supergraphPath } = await import('./compose.js');
writeFileSync(supergraphPath, composeSupergraph());
console.log(`wrote ${supergraphPath}`);
