import { writeFileSync } from 'node:fs';
import { parseCommandLine } from './cli.js';
import { renderErrorCatalogMarkdown } from './errors.js';

parseCommandLine({
  usage: `usage: npm run docs:errors
Writes docs/errors.md from the error catalog in platform/errors.ts (a test fails while it is stale).`,
});
writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorCatalogMarkdown());
