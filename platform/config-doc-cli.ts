import { writeFileSync } from 'node:fs';
import { renderConfigurationMarkdown } from './config.js';

writeFileSync(new URL('../docs/configuration.md', import.meta.url), renderConfigurationMarkdown());
