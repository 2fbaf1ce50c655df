// The start-time import of the shipped reference data (data/, PROVENANCE.md) into the database
// (decision 0021). Screening keeps reading the in-memory indexes of data/index.ts; the tables are the
// auditable copy an operator queries ("which list version screened this payment?").
//
// Idempotent by digest: each dataset's sha256 covers its files, its sources.json entry and the
// import format. When reference_datasets holds that digest the dataset is left alone (a start with
// nothing to do costs one SELECT); otherwise its rows and its reference_datasets row are replaced
// in one transaction (reference/store.ts). `npm run data:refresh:compliance` rewrites the files;
// the next start imports the new version.

import { createHash } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import type { Database } from '../../../platform/db.js';
import { parseDigitalCurrencyAddresses, parseOfacFiles, readDataFile } from '../data/index.js';
import { countryCodesSchema, parseFatfLists, parseHeadsOfState, parseLeiRecords, parseMeps, parseUsFederalPeps, type Sources, sourcesSchema } from '../data/reference.js';
import type { DatasetProvenance, FatfList, PepRecord } from '../domain/index.js';
import { createReferenceStore, type ReferenceRows } from './store.js';

/**
 * Bumped when the mapping from files to rows changes: every dataset's digest changes with it, so
 * the next start re-imports even though the files did not change.
 */
export const REFERENCE_IMPORT_FORMAT = 1;

/** Reads a file of data/ by its path there (`ofac/sdn.csv`), as text. Tests pass a modified copy. */
export type ReferenceFileReader = (path: string) => string;

export type ReferenceDatasetName = 'ofacSdn' | 'pepUsFederal' | 'pepHeadsOfState' | 'pepMeps' | 'lei' | 'fatf';

interface DatasetDefinition {
  files: readonly string[];
  /** The dataset's rows and its count of primary records, from its files' text (by path). */
  rows(text: (path: string) => string, provenance: DatasetProvenance): { rows: ReferenceRows; records: number };
}

const HEADS_OF_STATE_FILE = 'pep/world_heads_of_state_government_wikidata_2022-10-10.csv';
const MEPS_FILE = 'pep/european_parliament_meps_9th_term_wikidata_2022-11-21.csv';
const COUNTRY_CODES_FILE = 'pep/country-codes.json';

function pepRows(dataset: ReferenceDatasetName, records: readonly PepRecord[]): { rows: ReferenceRows; records: number } {
  const rows = records.map((record, index) => ({ dataset, seq: index + 1, ...record, otherNames: [...record.otherNames] }));
  return { rows: { kind: 'pep', records: rows }, records: rows.length };
}

const countryCodes = (text: (path: string) => string) => countryCodesSchema.parse(JSON.parse(text(COUNTRY_CODES_FILE))).codes;

function fatfRows(list: FatfList, current: boolean) {
  const common = { statementDate: list.statementDate, plenary: list.plenary, current };
  return [
    ...list.blacklist.map(({ code, name, call }) => ({ ...common, list: 'blacklist' as const, code, name, call })),
    ...list.greylist.map(({ code, name }) => ({ ...common, list: 'greylist' as const, code, name, call: null })),
  ];
}

/** Each imported dataset: the files it is read from (under data/) and how they become rows. Keys are those of sources.json. */
export const REFERENCE_DATASETS: Readonly<Record<ReferenceDatasetName, DatasetDefinition>> = {
  ofacSdn: {
    files: ['ofac/sdn.csv', 'ofac/alt.csv', 'ofac/add.csv', 'ofac/sdn_comments.csv', 'ofac/digital_currency_addresses.csv'],
    rows(text) {
      const entries = parseOfacFiles(
        { sdn: text('ofac/sdn.csv'), alt: text('ofac/alt.csv'), add: text('ofac/add.csv'), comments: text('ofac/sdn_comments.csv') },
        parseDigitalCurrencyAddresses(text('ofac/digital_currency_addresses.csv')),
      );
      return {
        records: entries.length,
        rows: {
          kind: 'sdn',
          entries: entries.map(({ entNum, name, type, programs, title, remarks }) => ({ entNum, name, type, programs: [...programs], title, remarks })),
          aliases: entries.flatMap(({ entNum, aliases }) => aliases.map((alias) => ({ entNum, ...alias }))),
          addresses: entries.flatMap(({ entNum, addresses }) => addresses.map((address) => ({ entNum, ...address }))),
          digitalCurrencyAddresses: entries.flatMap(({ entNum, digitalCurrencyAddresses }) => digitalCurrencyAddresses.map((address) => ({ entNum, ...address }))),
        },
      };
    },
  },
  pepUsFederal: {
    files: ['pep/us_federal_peps.json'],
    rows: (text) => pepRows('pepUsFederal', parseUsFederalPeps(JSON.parse(text('pep/us_federal_peps.json')))),
  },
  pepHeadsOfState: {
    files: [HEADS_OF_STATE_FILE, COUNTRY_CODES_FILE],
    rows: (text) => pepRows('pepHeadsOfState', parseHeadsOfState(text(HEADS_OF_STATE_FILE), countryCodes(text))),
  },
  pepMeps: {
    files: [MEPS_FILE, COUNTRY_CODES_FILE],
    rows: (text) => pepRows('pepMeps', parseMeps(text(MEPS_FILE), countryCodes(text))),
  },
  lei: {
    files: ['lei/lei_records.json'],
    rows(text, provenance) {
      const { records, relationships } = parseLeiRecords(JSON.parse(text('lei/lei_records.json')), provenance);
      return {
        records: records.length,
        rows: {
          kind: 'lei',
          records: records.map(({ directParent, ultimateParent, otherNames, ...record }) => ({
            ...record,
            otherNames: otherNames.map(({ name, type }) => ({ name, type })),
            directParentLei: directParent,
            ultimateParentLei: ultimateParent,
          })),
          relationships: relationships.map(({ child, parent, type, status }) => ({ childLei: child, parentLei: parent, type, status })),
        },
      };
    },
  },
  fatf: {
    files: ['fatf/fatf_lists.json'],
    rows(text, provenance) {
      const lists = parseFatfLists(JSON.parse(text('fatf/fatf_lists.json')), provenance);
      const jurisdictions = [...fatfRows(lists.current, true), ...lists.history.flatMap((list) => fatfRows(list, false))];
      return { records: jurisdictions.length, rows: { kind: 'fatf', jurisdictions } };
    },
  },
};

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A dataset's digests: each file's, and the idempotency key over them, its provenance and the import format. */
export interface DatasetDigest {
  dataset: ReferenceDatasetName;
  provenance: DatasetProvenance;
  files: Record<string, string>;
  sha256: string;
}

/** The digest of every dataset as `read` sees the files now (reads every file once, parses only sources.json). */
export function referenceDigests(read: ReferenceFileReader): DatasetDigest[] {
  const sources: Sources = sourcesSchema.parse(JSON.parse(read('sources.json')));
  const fileDigests = new Map<string, string>();
  const fileDigest = (path: string) => {
    let digest = fileDigests.get(path);
    if (digest === undefined) fileDigests.set(path, (digest = sha256(read(path))));
    return digest;
  };
  return (Object.keys(REFERENCE_DATASETS) as ReferenceDatasetName[]).map((dataset) => {
    const provenance = sources[dataset];
    const files = Object.fromEntries(REFERENCE_DATASETS[dataset].files.map((path) => [path, fileDigest(path)]));
    const key = JSON.stringify({ format: REFERENCE_IMPORT_FORMAT, dataset, provenance: { source: provenance.source, url: provenance.url, asOf: provenance.asOf, licence: provenance.licence }, files });
    return { dataset, provenance, files, sha256: sha256(key) };
  });
}

let shippedDigests: DatasetDigest[] | undefined;

/** The shipped files' digests, computed once per process (the files change only with a refresh and a restart). */
export function shippedReferenceDigests(): DatasetDigest[] {
  shippedDigests ??= referenceDigests(readDataFile);
  return shippedDigests;
}

/** `read`, refusing a file whose text is not the one digested (rewritten by a refresh meanwhile): rows and digest always agree. */
function checkedReader(read: ReferenceFileReader, digest: DatasetDigest): (path: string) => string {
  return (path) => {
    const text = read(path);
    if (sha256(text) !== digest.files[path]) throw new Error(`reference data: ${path} changed while dataset ${digest.dataset} was being imported`);
    return text;
  };
}

export interface DatasetImport {
  dataset: ReferenceDatasetName;
  /** imported: this call replaced the dataset; unchanged: the same digest was loaded already (possibly by another process meanwhile). */
  action: 'imported' | 'unchanged';
  sha256: string;
  /** Primary records of an imported dataset. */
  records?: number;
  milliseconds: number;
}

export interface ReferenceImportOptions {
  db: Database;
  clock: Clock;
  /** The data/ files; default the shipped ones (digests computed once per process). */
  read?: ReferenceFileReader;
}

/**
 * Brings the database to the files' version of every dataset. Datasets whose digest is loaded are
 * skipped after one SELECT; each other one is parsed from the files read for its digest and
 * replaced in its own transaction. Throws when a file does not parse or the database fails: the
 * previous version of that dataset then stays loaded, whole.
 */
export async function importReferenceData(options: ReferenceImportOptions): Promise<DatasetImport[]> {
  const store = createReferenceStore(options.db);
  const read = options.read;
  const digests = read ? referenceDigests(read) : shippedReferenceDigests();
  const loaded = await store.loadedDigests();
  const results: DatasetImport[] = [];
  for (const digest of digests) {
    if (loaded.get(digest.dataset) === digest.sha256) {
      results.push({ dataset: digest.dataset, action: 'unchanged', sha256: digest.sha256, milliseconds: 0 });
      continue;
    }
    const started = performance.now();
    const { rows, records } = REFERENCE_DATASETS[digest.dataset].rows(checkedReader(read ?? readDataFile, digest), digest.provenance);
    const { source, url, asOf, licence } = digest.provenance;
    const replaced = await store.replaceDataset({ dataset: { dataset: digest.dataset, source, url, asOf, licence, records, sha256: digest.sha256, files: digest.files }, rows }, options.clock.now());
    results.push({
      dataset: digest.dataset,
      action: replaced ? 'imported' : 'unchanged',
      sha256: digest.sha256,
      ...(replaced ? { records } : {}),
      milliseconds: Math.round(performance.now() - started),
    });
  }
  return results;
}
