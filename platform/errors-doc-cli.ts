import { writeFileSync } from 'node:fs';
import { renderErrorCatalogMarkdown } from './errors.js';

writeFileSync(new URL('../docs/errors.md', import.meta.url), renderErrorCatalogMarkdown());
