// Parsers of OFAC's legacy CSV files (sdn.csv, add.csv, alt.csv, sdn_comments.csv) and the
// digital-currency addresses derived from them. They take the files' text, so the shipped snapshot
// and a refresh (refresh.ts) go through the same checks.
//
// OFAC's format: no header row, CRLF line ends, a trailing Ctrl-Z (0x1A) byte after the last
// line, text fields in double quotes, and `-0- ` (with a trailing space) for an empty field.

import { parse } from 'csv-parse/sync';
import type { DigitalCurrencyAddress, SdnAddress, SdnAlias, SdnAliasType, SdnEntry, SdnType } from '../domain/index.js';

export class OfacDataError extends Error {
  override name = 'OfacDataError';
}

export interface OfacFiles {
  sdn: string;
  add: string;
  alt: string;
  /** sdn_comments.csv: Remarks beyond OFAC's 1,000-character cut. */
  comments: string;
}

/** Rows of one OFAC file: Ctrl-Z end marker removed, every row checked to have `columns` fields. */
export function parseOfacCsv(text: string, columns: number, file: string): string[][] {
  // eslint-disable-next-line no-control-regex -- OFAC's files end with a Ctrl-Z (0x1a): the one control character removed
  const body = text.replace(/\x1a[\r\n]*$/, '');
  let rows: string[][];
  try {
    rows = parse(body, { skip_empty_lines: true, relax_column_count: false });
  } catch (error) {
    throw new OfacDataError(`${file}: not OFAC CSV (${error instanceof Error ? error.message : String(error)})`);
  }
  rows.forEach((row, i) => {
    if (row.length !== columns) throw new OfacDataError(`${file}: row ${i + 1} has ${row.length} fields, expected ${columns}`);
  });
  return rows;
}

/** OFAC's `-0-` (empty) and blank fields as null; other text trimmed. */
export function ofacField(value: string | undefined): string | null {
  const trimmed = (value ?? '').trim();
  return trimmed === '' || trimmed === '-0-' ? null : trimmed;
}

function ofacNumber(value: string | undefined, file: string, row: number): number {
  const text = ofacField(value);
  if (text === null || !/^\d+$/.test(text)) throw new OfacDataError(`${file}: row ${row} has no numeric key ("${value ?? ''}")`);
  return Number(text);
}

function sdnType(value: string | undefined, row: number): SdnType {
  const text = ofacField(value);
  if (text === null) return 'entity';
  if (text === 'individual' || text === 'vessel' || text === 'aircraft') return text;
  throw new OfacDataError(`sdn.csv: row ${row} has SDN_Type "${text}"`);
}

function aliasType(value: string | undefined, row: number): SdnAliasType {
  const text = ofacField(value);
  if (text === 'aka' || text === 'fka' || text === 'nka') return text;
  throw new OfacDataError(`alt.csv: row ${row} has alt_type "${value ?? ''}"`);
}

/** `SDNTK] [FTO] [SDGT` → ['SDNTK', 'FTO', 'SDGT']. */
export function ofacPrograms(value: string | undefined): string[] {
  const text = ofacField(value);
  if (text === null) return [];
  return text
    .split(/\]\s*\[/)
    .map((program) => program.replace(/^\[|\]$/g, '').trim())
    .filter((program) => program !== '');
}

const DIGITAL_CURRENCY_ADDRESS = /Digital Currency Address - ([A-Za-z0-9]+)\s+([^\s;]+)/g;

/**
 * The digital-currency addresses named in one entry's remarks ("Digital Currency Address - XBT
 * 1Kuf2…; alt. Digital Currency Address - ETH 0x…"), a trailing full stop removed, duplicates once.
 */
export function digitalCurrencyAddressesIn(remarks: string | null): DigitalCurrencyAddress[] {
  if (remarks === null) return [];
  const found = new Map<string, DigitalCurrencyAddress>();
  for (const match of remarks.matchAll(DIGITAL_CURRENCY_ADDRESS)) {
    const currency = match[1]!;
    const address = match[2]!.replace(/\.$/, '');
    found.set(`${currency} ${address}`, { currency, address });
  }
  return [...found.values()];
}

/** The remarks continuations of sdn_comments.csv by ent_num (joined on without a separator). */
function parseComments(text: string): Map<number, string> {
  const continuations = new Map<number, string>();
  parseOfacCsv(text, 2, 'sdn_comments.csv').forEach((row, i) => {
    const entNum = ofacNumber(row[0], 'sdn_comments.csv', i + 1);
    continuations.set(entNum, (continuations.get(entNum) ?? '') + (row[1] ?? ''));
  });
  return continuations;
}

interface MutableEntry extends Omit<SdnEntry, 'aliases' | 'addresses'> {
  aliases: SdnAlias[];
  addresses: SdnAddress[];
}

/**
 * The SDN list from OFAC's four files. Digital-currency addresses are taken from `addresses` when
 * given (the shipped digital_currency_addresses.csv), else derived from the remarks. An alias or
 * address row for an ent_num that sdn.csv does not have means the files come from different
 * releases, and throws.
 */
export function parseOfacFiles(files: OfacFiles, addresses?: ReadonlyMap<number, readonly DigitalCurrencyAddress[]>): SdnEntry[] {
  const continuations = parseComments(files.comments);
  const entries = new Map<number, MutableEntry>();
  parseOfacCsv(files.sdn, 12, 'sdn.csv').forEach((row, i) => {
    const entNum = ofacNumber(row[0], 'sdn.csv', i + 1);
    const name = ofacField(row[1]);
    if (name === null) throw new OfacDataError(`sdn.csv: row ${i + 1} (ent_num ${entNum}) has no name`);
    if (entries.has(entNum)) throw new OfacDataError(`sdn.csv: ent_num ${entNum} appears twice`);
    // The continuation joins the cut text as written: the cut can fall just after a space.
    const cut = ofacField(row[11]) === null ? '' : (row[11] ?? '');
    const remarks = ofacField(cut + (continuations.get(entNum) ?? ''));
    entries.set(entNum, {
      entNum,
      name,
      type: sdnType(row[2], i + 1),
      programs: ofacPrograms(row[3]),
      title: ofacField(row[4]),
      aliases: [],
      addresses: [],
      digitalCurrencyAddresses: addresses ? (addresses.get(entNum) ?? []) : digitalCurrencyAddressesIn(remarks),
      remarks,
    });
  });

  const owner = (entNum: number, file: string): MutableEntry => {
    const entry = entries.get(entNum);
    if (!entry) throw new OfacDataError(`${file}: ent_num ${entNum} is not in sdn.csv (files from different releases?)`);
    return entry;
  };
  parseOfacCsv(files.alt, 5, 'alt.csv').forEach((row, i) => {
    const name = ofacField(row[3]);
    if (name === null) throw new OfacDataError(`alt.csv: row ${i + 1} has no alt_name`);
    owner(ofacNumber(row[0], 'alt.csv', i + 1), 'alt.csv').aliases.push({
      altNum: ofacNumber(row[1], 'alt.csv', i + 1),
      type: aliasType(row[2], i + 1),
      name,
      remarks: ofacField(row[4]),
    });
  });
  parseOfacCsv(files.add, 6, 'add.csv').forEach((row, i) => {
    const entry = owner(ofacNumber(row[0], 'add.csv', i + 1), 'add.csv');
    const address = { addNum: ofacNumber(row[1], 'add.csv', i + 1), address: ofacField(row[2]), cityStateZip: ofacField(row[3]), country: ofacField(row[4]) };
    if (address.address !== null || address.cityStateZip !== null || address.country !== null) entry.addresses.push(address);
  });
  return [...entries.values()];
}

/** digital_currency_addresses.csv (`ent_num,currency,address`, header row, UTF-8) by ent_num. */
export function parseDigitalCurrencyAddresses(text: string): Map<number, DigitalCurrencyAddress[]> {
  const rows = parseOfacCsv(text, 3, 'digital_currency_addresses.csv');
  const [header, ...body] = rows;
  if (header?.join(',') !== 'ent_num,currency,address') throw new OfacDataError('digital_currency_addresses.csv: the header is not ent_num,currency,address');
  const byEntity = new Map<number, DigitalCurrencyAddress[]>();
  body.forEach((row, i) => {
    const entNum = ofacNumber(row[0], 'digital_currency_addresses.csv', i + 2);
    const currency = ofacField(row[1]);
    const address = ofacField(row[2]);
    if (currency === null || address === null) throw new OfacDataError(`digital_currency_addresses.csv: row ${i + 2} is incomplete`);
    const list = byEntity.get(entNum) ?? [];
    list.push({ currency, address });
    byEntity.set(entNum, list);
  });
  return byEntity;
}

/** The derived file as refresh.ts writes it: header, one row per entity and address, CRLF (as shipped). */
export function formatDigitalCurrencyAddresses(entries: readonly SdnEntry[]): string {
  const lines = ['ent_num,currency,address'];
  for (const entry of entries) {
    for (const { currency, address } of entry.digitalCurrencyAddresses) lines.push(`${entry.entNum},${currency},${address}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}
