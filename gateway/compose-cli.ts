import { writeFileSync } from 'node:fs';
import { composeSupergraph, supergraphPath } from './compose.js';

writeFileSync(supergraphPath, composeSupergraph());
console.log(`wrote ${supergraphPath}`);
