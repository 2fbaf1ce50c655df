// One worksheet of an Office Open XML workbook (ECMA-376 SpreadsheetML, .xlsx) as rows of cell values:
// the workbook's sheet list, its relationships, the shared strings and the sheet's <row>/<c> elements.
// Formulas are read as their cached values; styles (and so date formats) are not read.

import { openZip, type ZipArchive } from './zip.js';

export type CellValue = string | number | boolean;

export interface SheetRow {
  /** The 1-based row number the sheet gives. */
  row: number;
  /** Cell values by column letters ("A", "AB"); empty cells are absent. */
  cells: ReadonlyMap<string, CellValue>;
}

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELATIONSHIPS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS_TYPE = /\/sharedStrings$/;

/** The rows of the sheet named `sheetName`; throws an Error naming what is missing when the workbook does not have it. */
export function readWorksheet(bytes: Uint8Array, sheetName: string): SheetRow[] {
  const archive = openZip(bytes);
  const relationships = parseRelationships(entryText(archive, WORKBOOK_RELATIONSHIPS));
  const sheet = sheetTargets(entryText(archive, WORKBOOK)).find((candidate) => candidate.name === sheetName);
  if (sheet === undefined) throw new Error(`workbook has no sheet named "${sheetName}"`);
  const target = relationships.find((relationship) => relationship.id === sheet.relationshipId);
  if (target === undefined) throw new Error(`sheet "${sheetName}" has no relationship ${sheet.relationshipId}`);
  const stringsTarget = relationships.find((relationship) => SHARED_STRINGS_TYPE.test(relationship.type));
  const strings = stringsTarget === undefined ? [] : parseSharedStrings(entryText(archive, partPath(stringsTarget.target)));
  return parseRows(entryText(archive, partPath(target.target)), strings);
}

/** Column letters of a 0-based column index: 0 -> "A", 27 -> "AB". */
export function columnLetters(index: number): string {
  let letters = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}

function columnIndex(letters: string): number {
  return [...letters].reduce((index, letter) => index * 26 + letter.charCodeAt(0) - 64, 0) - 1;
}

function entryText(archive: ZipArchive, name: string): string {
  const bytes = archive.read(name);
  if (bytes === undefined) throw new Error(`workbook has no part ${name}`);
  return new TextDecoder().decode(bytes);
}

/** Relationship targets are relative to xl/ unless they start at the package root. */
function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/([\w:]+)="([^"]*)"/g)) found[name!] = unescapeXml(value!);
  return found;
}

function sheetTargets(workbook: string): Array<{ name: string; relationshipId: string }> {
  return [...workbook.matchAll(/<sheet\b([^>]*?)\/?>/g)].map(([, tag]) => {
    const { name = '', 'r:id': relationshipId = '' } = attributes(tag!);
    return { name, relationshipId };
  });
}

function parseRelationships(xml: string): Array<{ id: string; type: string; target: string }> {
  return [...xml.matchAll(/<Relationship\b([^>]*?)\/?>/g)].map(([, tag]) => {
    const { Id = '', Type = '', Target = '' } = attributes(tag!);
    return { id: Id, type: Type, target: Target };
  });
}

/** Each <si>: its text runs joined, phonetic guides (<rPh>) left out. */
function parseSharedStrings(xml: string): string[] {
  return [...xml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map(([, item]) => textRuns(item!.replace(/<rPh\b[\s\S]*?<\/rPh>/g, '')));
}

function textRuns(xml: string): string {
  return [...xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)].map(([, text]) => unescapeXml(text!)).join('');
}

function parseRows(xml: string, strings: readonly string[]): SheetRow[] {
  const rows: SheetRow[] = [];
  let previousRow = 0;
  for (const [, tag, body] of xml.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const declared = attributes(tag!).r;
    const row = declared === undefined ? previousRow + 1 : Number(declared);
    previousRow = row;
    if (body !== undefined) rows.push({ row, cells: parseCells(body, strings) });
  }
  return rows;
}

function parseCells(xml: string, strings: readonly string[]): Map<string, CellValue> {
  const cells = new Map<string, CellValue>();
  let previousColumn = -1;
  for (const [, tag, body] of xml.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const { r, t } = attributes(tag!);
    const column = r === undefined ? previousColumn + 1 : columnIndex(r.replace(/\d+$/, ''));
    previousColumn = column;
    const value = body === undefined ? undefined : cellValue(body, t, strings);
    if (value !== undefined) cells.set(columnLetters(column), value);
  }
  return cells;
}

function cellValue(body: string, type: string | undefined, strings: readonly string[]): CellValue | undefined {
  if (type === 'inlineStr') return textRuns(body);
  const raw = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
  if (raw === undefined) return undefined;
  switch (type) {
    case 's': {
      const text = strings[Number(raw)];
      if (text === undefined) throw new Error(`shared string ${raw} does not exist`);
      return text;
    }
    case 'b':
      return raw === '1';
    case 'str':
    case 'e':
      return unescapeXml(raw);
    default: {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new Error(`numeric cell holds "${raw.slice(0, 20)}"`);
      return value;
    }
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_match, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return NAMED_ENTITIES[entity]!;
  });
}
