import { writeFileSync } from 'node:fs';
import { parseCommandLine } from '../platform/cli.js';
import { composeSupergraph, supergraphPath } from './compose.js';

parseCommandLine({
  usage: `usage: npm run compose
Recomposes schema/supergraph.graphql from schema/*.graphql, the subgraphs in the order of
gateway/subgraphs.ts (a test fails while it is stale; Apollo Router can load the same file).`,
});
writeFileSync(supergraphPath, composeSupergraph());
console.log(`wrote ${supergraphPath}`);
