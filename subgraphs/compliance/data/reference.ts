// Parsers of the shipped PEP, LEI, FATF and regulatory snapshots into the domain's plain types.
// Each takes already-read text or JSON, so they are testable without files; index.ts reads them.

import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { DatasetProvenance, FatfList, FatfLists, LeiDataset, LeiRecord, LeiRelationship, PepRecord, RegulatoryKeyDate } from '../domain/index.js';

export const provenanceSchema = z.object({ source: z.string().min(1), url: z.string().min(1), asOf: z.string().min(1), licence: z.string().min(1) });

export const sourcesSchema = z.object({
  ofacSdn: provenanceSchema,
  pepUsFederal: provenanceSchema,
  pepHeadsOfState: provenanceSchema,
  pepMeps: provenanceSchema,
  lei: provenanceSchema,
  fatf: provenanceSchema,
  keyDates: provenanceSchema,
});
export type Sources = z.infer<typeof sourcesSchema>;

/** A CSV file with a header row, as objects keyed by the header's column names. */
function csvObjects(text: string): Record<string, string>[] {
  return parse(text, { columns: true, skip_empty_lines: true, bom: true });
}

// ---- PEP -------------------------------------------------------------------------------------

const usPepSchema = z.object({
  persons: z.array(
    z.object({
      id: z.string(),
      full_name: z.string().min(1),
      other_names: z.array(z.string()),
      country: z.string().length(2),
      position: z.string(),
      is_current: z.boolean(),
    }),
  ),
});

/** us_federal_peps.json: members of Congress and all presidents and vice presidents. */
export function parseUsFederalPeps(json: unknown): PepRecord[] {
  return usPepSchema.parse(json).persons.map((person) => ({
    id: person.id,
    name: person.full_name,
    otherNames: [...new Set(person.other_names)].filter((name) => name !== person.full_name),
    position: person.position,
    country: person.country,
    countryName: person.country === 'US' ? 'United States' : person.country,
    current: person.is_current,
    source: 'us-congress-legislators',
  }));
}

/** country-codes.json: the ISO 3166-1 alpha-2 code of each Wikidata country label (null: no ISO code). */
export const countryCodesSchema = z.object({ codes: z.record(z.string(), z.string().length(2).nullable()) });

function countryCode(codes: Readonly<Record<string, string | null>>, label: string, file: string): string | null {
  if (!Object.hasOwn(codes, label)) throw new Error(`${file}: country "${label}" is not in pep/country-codes.json`);
  return codes[label] ?? null;
}

/**
 * The Wikidata heads of state and government (one record per person and office). `current` is
 * true when the office had no end year when Wikidata was queried (2022-10-10): a stale snapshot.
 * A row whose officeholder has no English label (the label is the bare QID; one row, Burkina
 * Faso's "military leader") has no name to screen and is left out.
 */
export function parseHeadsOfState(text: string, codes: Readonly<Record<string, string | null>>): PepRecord[] {
  const file = 'world_heads_of_state_government_wikidata_2022-10-10.csv';
  return csvObjects(text)
    .filter((row) => row.officeholderLabel !== row.officeholder)
    .map((row) => {
      const name = row.officeholderLabel ?? '';
      const countryName = row.country ?? '';
      if (name === '' || countryName === '') throw new Error(`${file}: a row has no officeholder or country`);
      return {
        id: `wikidata-${row.officeholder}-${row.position}`,
        name,
        otherNames: [],
        position: row.positionLabel ?? '',
        country: countryCode(codes, countryName, file),
        countryName,
        current: (row.end_year ?? '') === '',
        source: 'wikidata-heads-of-state-government' as const,
      };
    });
}

/** The 701 MEPs of the European Parliament's 9th term (2019-2024): all former members now. */
export function parseMeps(text: string, codes: Readonly<Record<string, string | null>>): PepRecord[] {
  const file = 'european_parliament_meps_9th_term_wikidata_2022-11-21.csv';
  return csvObjects(text).map((row) => {
    const countryName = row.country ?? '';
    if ((row.name ?? '') === '') throw new Error(`${file}: a row has no name`);
    return {
      id: `wikidata-${row.item}-ep9`,
      name: row.name ?? '',
      otherNames: [],
      position: 'Member of the European Parliament (9th term, 2019-2024)',
      country: countryCode(codes, countryName, file),
      countryName,
      current: false,
      source: 'wikidata-european-parliament' as const,
    };
  });
}

// ---- LEI -------------------------------------------------------------------------------------

const address = z.object({ country: z.string().nullable() }).nullable();
const leiFileSchema = z.object({
  records: z.array(
    z.object({
      lei: z.string(),
      legalName: z.string().min(1),
      otherNames: z.array(z.object({ name: z.string(), type: z.string().nullable() })).nullable(),
      jurisdiction: z.string().nullable(),
      legalAddress: address,
      entityStatus: z.string().nullable(),
      registrationStatus: z.string().nullable(),
      directParent: z.string().nullable(),
      ultimateParent: z.string().nullable(),
      directParentLink: z.enum(['REPORTED', 'REPORTING_EXCEPTION']).nullable(),
      ultimateParentLink: z.enum(['REPORTED', 'REPORTING_EXCEPTION']).nullable(),
      directParentException: z.string().nullable(),
      ultimateParentException: z.string().nullable(),
      asOf: z.string(),
    }),
  ),
  relationships: z.array(
    z.object({
      startNode: z.string(),
      endNode: z.string(),
      type: z.enum(['IS_DIRECTLY_CONSOLIDATED_BY', 'IS_ULTIMATELY_CONSOLIDATED_BY', 'IS_INTERNATIONAL_BRANCH_OF']),
      status: z.string(),
    }),
  ),
});

/** GLEIF registration statuses under which an LEI is current (not lapsed, retired, annulled ...). */
const CURRENT_REGISTRATIONS: ReadonlySet<string> = new Set(['ISSUED', 'PENDING_TRANSFER', 'PENDING_ARCHIVAL']);

/** ACTIVE for an active entity with a current registration; otherwise the status that says why not. */
export function leiStatus(entityStatus: string, registrationStatus: string): string {
  if (entityStatus !== 'ACTIVE') return entityStatus;
  return CURRENT_REGISTRATIONS.has(registrationStatus) ? 'ACTIVE' : registrationStatus;
}

export function parseLeiRecords(json: unknown, provenance: DatasetProvenance): LeiDataset {
  const file = leiFileSchema.parse(json);
  const records: LeiRecord[] = file.records.map((record) => {
    const entityStatus = record.entityStatus ?? 'UNKNOWN';
    const registrationStatus = record.registrationStatus ?? 'UNKNOWN';
    return {
      lei: record.lei,
      legalName: record.legalName,
      otherNames: (record.otherNames ?? []).map(({ name, type }) => ({ name, type: type ?? 'OTHER' })),
      status: leiStatus(entityStatus, registrationStatus),
      entityStatus,
      registrationStatus,
      jurisdiction: record.jurisdiction,
      country: record.legalAddress?.country ?? null,
      directParent: record.directParent,
      ultimateParent: record.ultimateParent,
      directParentLink: record.directParentLink,
      ultimateParentLink: record.ultimateParentLink,
      directParentException: record.directParentException,
      ultimateParentException: record.ultimateParentException,
      asOf: record.asOf,
    };
  });
  const relationships: LeiRelationship[] = file.relationships.map((r) => ({ child: r.startNode, parent: r.endNode, type: r.type, status: r.status }));
  return { provenance, records, relationships };
}

// ---- FATF and regulatory dates ---------------------------------------------------------------

const jurisdiction = z.object({ name: z.string(), iso2: z.string().length(2) });
const fatfListSchema = z.object({
  plenary: z.string(),
  statement_date: z.iso.date(),
  high_risk_call_for_action: z.array(jurisdiction.extend({ fatf_call: z.string() })),
  increased_monitoring: z.array(jurisdiction),
});
const fatfFileSchema = z.object({ current: fatfListSchema, history: z.array(fatfListSchema) });

function fatfList(list: z.infer<typeof fatfListSchema>): FatfList {
  return {
    plenary: list.plenary,
    statementDate: list.statement_date,
    blacklist: list.high_risk_call_for_action.map(({ name, iso2, fatf_call }) => ({ code: iso2, name, call: fatf_call })),
    greylist: list.increased_monitoring.map(({ name, iso2 }) => ({ code: iso2, name })),
  };
}

export function parseFatfLists(json: unknown, provenance: DatasetProvenance): FatfLists {
  const file = fatfFileSchema.parse(json);
  return { provenance, current: fatfList(file.current), history: file.history.map(fatfList) };
}

const keyDatesSchema = z.object({
  dates: z.array(
    z.object({
      regime: z.string(),
      instrument: z.string(),
      event: z.string(),
      date: z.iso.date(),
      citation: z.object({ url: z.url(), publisher: z.string() }),
    }),
  ),
});

export function parseKeyDates(json: unknown): RegulatoryKeyDate[] {
  return keyDatesSchema.parse(json).dates.map(({ citation, ...date }) => ({ ...date, citation: { url: citation.url, publisher: citation.publisher } }));
}
