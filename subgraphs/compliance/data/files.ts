import { readFileSync } from 'node:fs';

/** A file of this folder, as text. */
export const readDataFile = (path: string): string => readFileSync(new URL(`./${path}`, import.meta.url), 'utf8');
