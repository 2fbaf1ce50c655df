import { writeFileSync } from 'node:fs';
import { parseCommandLine } from './cli.js';
import { renderConfigurationMarkdown } from './config.js';

parseCommandLine({
  usage: `usage: npm run docs:config
Writes docs/configuration.md from the variables declared in platform/config.ts (a test fails while it is stale).`,
});
writeFileSync(new URL('../docs/configuration.md', import.meta.url), renderConfigurationMarkdown());
