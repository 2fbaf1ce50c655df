// npm run data:refresh:compliance — replaces the shipped OFAC SDN files with the current release
// of OFAC's Sanctions List Service, when a network is available.
//
// 1. Downloads SDN.CSV, ADD.CSV, ALT.CSV and SDN_COMMENTS.CSV, each within a time limit.
// 2. Parses them with the loader's parser (ofac.ts): a file that does not parse, a list of fewer
//    than MIN_ENTRIES entries, or an alias or address of an unknown entry stops the refresh.
// 3. Derives digital_currency_addresses.csv from the remarks.
// 4. Writes every file beside its target, then renames each into place (atomic per file), and
//    sources.json last with the new as-of date.
// Any failure before step 4 leaves the folder as it was, and says why.
//
// Options (for tests): --base-url <url> (default OFAC's), --data-dir <path> (default this folder); --help.

import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseCommandLine } from '../../../platform/cli.js';
import { formatDigitalCurrencyAddresses, type OfacFiles, parseOfacFiles } from './ofac.js';
import { sourcesSchema } from './reference.js';

export const OFAC_EXPORTS_URL = 'https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/';

/** OFAC's export name → the shipped file it replaces. */
const FILES = [
  { key: 'sdn', remote: 'SDN.CSV', local: 'ofac/sdn.csv' },
  { key: 'add', remote: 'ADD.CSV', local: 'ofac/add.csv' },
  { key: 'alt', remote: 'ALT.CSV', local: 'ofac/alt.csv' },
  { key: 'comments', remote: 'SDN_COMMENTS.CSV', local: 'ofac/sdn_comments.csv' },
] as const satisfies readonly { key: keyof OfacFiles; remote: string; local: string }[];

/** A real SDN list has thousands of entries; fewer means a truncated or empty download. */
const MIN_ENTRIES = 5_000;

export interface RefreshOptions {
  baseUrl?: string;
  /** The data folder (default: the folder of this file). */
  dataDir?: string;
  /** Per download. */
  timeoutMs?: number;
  now?: () => Date;
  fetch?: typeof fetch;
}

export interface RefreshResult {
  entries: number;
  aliases: number;
  digitalCurrencyAddresses: number;
  asOf: string;
}

export class RefreshError extends Error {
  override name = 'RefreshError';
}

async function download(url: string, timeoutMs: number, fetchImpl: typeof fetch): Promise<{ bytes: Buffer; lastModified: string | null }> {
  let response: Response;
  try {
    response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new RefreshError(`could not download ${url}: ${cause}`);
  }
  if (!response.ok) throw new RefreshError(`could not download ${url}: HTTP ${response.status}`);
  try {
    return { bytes: Buffer.from(await response.arrayBuffer()), lastModified: response.headers.get('last-modified') };
  } catch (error) {
    throw new RefreshError(`could not read ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** YYYY-MM-DD of a Last-Modified header, or of `now` when the header is missing or unreadable. */
function asOfDate(lastModified: string | null, now: Date): string {
  const parsed = lastModified === null ? Number.NaN : Date.parse(lastModified);
  return new Date(Number.isNaN(parsed) ? now.getTime() : parsed).toISOString().slice(0, 10);
}

export async function refreshOfacFiles(options: RefreshOptions = {}): Promise<RefreshResult> {
  const baseUrl = options.baseUrl ?? OFAC_EXPORTS_URL;
  const dataDir = options.dataDir ?? fileURLToPath(new URL('.', import.meta.url));
  const timeoutMs = options.timeoutMs ?? 60_000;
  const fetchImpl = options.fetch ?? fetch;
  const now = (options.now ?? (() => new Date()))();
  const path = (file: string) => `${dataDir.replace(/\/$/, '')}/${file}`;

  const downloads = await Promise.all(FILES.map((file) => download(new URL(file.remote, baseUrl).href, timeoutMs, fetchImpl)));
  const bytes = Object.fromEntries(FILES.map((file, i) => [file.key, downloads[i]!.bytes])) as Record<keyof OfacFiles, Buffer>;
  const text = Object.fromEntries(FILES.map((file) => [file.key, bytes[file.key].toString('utf8')])) as unknown as OfacFiles;

  let entries;
  try {
    entries = parseOfacFiles(text);
  } catch (error) {
    throw new RefreshError(`the downloaded files are not a consistent OFAC release: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (entries.length < MIN_ENTRIES) throw new RefreshError(`the downloaded SDN.CSV has ${entries.length} entries, fewer than ${MIN_ENTRIES}: not replacing the snapshot`);

  const sources = sourcesSchema.parse(JSON.parse(await readFile(path('sources.json'), 'utf8')));
  const asOf = asOfDate(downloads[0]!.lastModified, now);
  sources.ofacSdn = {
    ...sources.ofacSdn,
    source: `US Treasury OFAC, SDN list from the Sanctions List Service (SDN.CSV, ADD.CSV, ALT.CSV, SDN_COMMENTS.CSV), downloaded ${now.toISOString()}; digital_currency_addresses.csv derived from the remarks`,
    url: new URL('SDN.CSV', baseUrl).href,
    asOf,
  };

  const writes: { target: string; content: Buffer | string }[] = [
    ...FILES.map((file) => ({ target: path(file.local), content: bytes[file.key] })),
    { target: path('ofac/digital_currency_addresses.csv'), content: formatDigitalCurrencyAddresses(entries) },
    { target: path('sources.json'), content: `${JSON.stringify(sources, null, 2)}\n` },
  ];
  const suffix = `.refresh-${randomUUID()}`;
  try {
    for (const { target, content } of writes) await writeFile(`${target}${suffix}`, content);
  } catch (error) {
    await Promise.all(writes.map(({ target }) => rm(`${target}${suffix}`, { force: true })));
    throw new RefreshError(`could not write the new files: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const { target } of writes) await rename(`${target}${suffix}`, target);

  return {
    entries: entries.length,
    aliases: entries.reduce((sum, entry) => sum + entry.aliases.length, 0),
    digitalCurrencyAddresses: entries.reduce((sum, entry) => sum + entry.digitalCurrencyAddresses.length, 0),
    asOf,
  };
}

const USAGE = `usage: npm run data:refresh:compliance [-- --base-url <url>] [-- --data-dir <path>]
Replaces the shipped OFAC SDN files with the current release of OFAC's Sanctions List Service
(needs a network). Any failure leaves the folder as it was.
  --base-url <url>   where the exports are (default ${OFAC_EXPORTS_URL})
  --data-dir <path>  the data folder to write (default subgraphs/compliance/data)`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseCommandLine({ usage: USAGE, options: { 'base-url': { type: 'string' }, 'data-dir': { type: 'string' } } });
  const baseUrl = values['base-url'];
  const dataDir = values['data-dir'];
  refreshOfacFiles({ ...(baseUrl ? { baseUrl } : {}), ...(dataDir ? { dataDir } : {}) }).then(
    (result) => {
      console.log(`OFAC SDN list refreshed: ${result.entries} entries, ${result.aliases} aliases, ${result.digitalCurrencyAddresses} digital-currency addresses, as of ${result.asOf}.`);
      console.log('Review the counts and hashes pinned in subgraphs/compliance/data/index.test.ts and update PROVENANCE.md.');
    },
    (error: unknown) => {
      console.error(`data:refresh:compliance failed: ${error instanceof Error ? error.message : String(error)}`);
      console.error('Nothing was changed.');
      process.exitCode = 1;
    },
  );
}
