// The compliance subgraph's reference-data tables (subgraphs/compliance, decision 0021).
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------------------------------------
// compliance: reference data imported from the shipped snapshots (subgraphs/compliance/data,
// reference-import.ts; decision 0021). Screening reads the in-memory indexes; these tables are the
// auditable, queryable copy. Each dataset is replaced whole in one transaction when its digest changes.
// ---------------------------------------------------------------------------------------------

/** One row per imported dataset (the keys of data/sources.json): which version is loaded, from where, under which licence. */
export const referenceDatasets = pgTable('reference_datasets', {
  /** ofacSdn, pepUsFederal, pepHeadsOfState, pepMeps, lei, fatf. */
  dataset: text('dataset').primaryKey(),
  source: text('source').notNull(),
  url: text('url').notNull(),
  /** The publisher's as-of date as sources.json states it (YYYY-MM-DD, or "mid-2026"). */
  asOf: text('as_of').notNull(),
  licence: text('licence').notNull(),
  /** Primary records loaded: SDN entries, PEP records, LEI records, FATF list entries. */
  records: integer('records').notNull(),
  /** SHA-256 over the files' digests, the dataset's sources.json entry and the import format: the idempotency key. */
  sha256: text('sha256').notNull(),
  /** SHA-256 of each shipped file the dataset was read from, by path under data/. */
  files: jsonb('files').$type<Record<string, string>>().notNull(),
  loadedAt: timestamp('loaded_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** OFAC SDN entries (sdn.csv, remarks joined with their sdn_comments.csv continuation). */
export const sdnEntries = pgTable('sdn_entries', {
  entNum: integer('ent_num').primaryKey(),
  name: text('name').notNull(),
  type: text('type').$type<'individual' | 'entity' | 'vessel' | 'aircraft'>().notNull(),
  programs: text('programs').array().notNull(),
  title: text('title'),
  remarks: text('remarks'),
});

/** OFAC aliases (alt.csv). */
export const sdnAliases = pgTable(
  'sdn_aliases',
  {
    entNum: integer('ent_num').notNull(),
    altNum: integer('alt_num').notNull(),
    type: text('type').$type<'aka' | 'fka' | 'nka'>().notNull(),
    name: text('name').notNull(),
    remarks: text('remarks'),
  },
  (table) => [primaryKey({ columns: [table.entNum, table.altNum] })],
);

/** OFAC addresses (add.csv), without the all-`-0-` placeholder rows. */
export const sdnAddresses = pgTable(
  'sdn_addresses',
  {
    entNum: integer('ent_num').notNull(),
    addNum: integer('add_num').notNull(),
    address: text('address'),
    cityStateZip: text('city_state_zip'),
    country: text('country'),
  },
  (table) => [primaryKey({ columns: [table.entNum, table.addNum] })],
);

/** Digital-currency addresses named in the SDN remarks (digital_currency_addresses.csv). */
export const sdnDigitalCurrencyAddresses = pgTable(
  'sdn_digital_currency_addresses',
  {
    entNum: integer('ent_num').notNull(),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
  },
  (table) => [primaryKey({ columns: [table.entNum, table.currency, table.address] }), index('sdn_digital_currency_addresses_address').on(table.address)],
);

/** PEP records of the three PEP datasets; `seq` is the record's position in its dataset (Wikidata ids repeat for a person with two terms). */
export const pepRecords = pgTable(
  'pep_records',
  {
    dataset: text('dataset').notNull(),
    seq: integer('seq').notNull(),
    id: text('id').notNull(),
    name: text('name').notNull(),
    otherNames: text('other_names').array().notNull(),
    position: text('position').notNull(),
    /** ISO 3166-1 alpha-2; null when the source's country has none. */
    country: text('country'),
    countryName: text('country_name').notNull(),
    current: boolean('current').notNull(),
    source: text('source').notNull(),
  },
  (table) => [primaryKey({ columns: [table.dataset, table.seq] }), index('pep_records_id').on(table.id)],
);

/** GLEIF Level 1 records with their Level 2 parents (lei_records.json). */
export const leiRecords = pgTable(
  'lei_records',
  {
    lei: text('lei').primaryKey(),
    legalName: text('legal_name').notNull(),
    otherNames: jsonb('other_names').$type<Array<{ name: string; type: string }>>().notNull(),
    /** ACTIVE, or the registration or entity status that says why not (data/reference.ts leiStatus). */
    status: text('status').notNull(),
    entityStatus: text('entity_status').notNull(),
    registrationStatus: text('registration_status').notNull(),
    jurisdiction: text('jurisdiction'),
    country: text('country'),
    directParentLei: text('direct_parent_lei'),
    ultimateParentLei: text('ultimate_parent_lei'),
    directParentLink: text('direct_parent_link').$type<'REPORTED' | 'REPORTING_EXCEPTION'>(),
    ultimateParentLink: text('ultimate_parent_link').$type<'REPORTED' | 'REPORTING_EXCEPTION'>(),
    directParentException: text('direct_parent_exception'),
    ultimateParentException: text('ultimate_parent_exception'),
    asOf: date('as_of', { mode: 'string' }).notNull(),
  },
  (table) => [index('lei_records_direct_parent').on(table.directParentLei), index('lei_records_ultimate_parent').on(table.ultimateParentLei)],
);

/** GLEIF Level 2 relationship records (child is consolidated by, or a branch of, parent). */
export const leiRelationships = pgTable(
  'lei_relationships',
  {
    childLei: text('child_lei').notNull(),
    parentLei: text('parent_lei').notNull(),
    type: text('type').$type<'IS_DIRECTLY_CONSOLIDATED_BY' | 'IS_ULTIMATELY_CONSOLIDATED_BY' | 'IS_INTERNATIONAL_BRANCH_OF'>().notNull(),
    status: text('status').notNull(),
  },
  (table) => [primaryKey({ columns: [table.childLei, table.parentLei, table.type] }), index('lei_relationships_parent').on(table.parentLei)],
);

/** The FATF lists of each plenary shipped (the current one and the earlier ones). */
export const fatfJurisdictions = pgTable(
  'fatf_jurisdictions',
  {
    statementDate: date('statement_date', { mode: 'string' }).notNull(),
    list: text('list').$type<'blacklist' | 'greylist'>().notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    plenary: text('plenary').notNull(),
    /** Black list only: the FATF's call (countermeasures, enhanced due diligence ...). */
    call: text('call'),
    /** Of the current plenary's lists. */
    current: boolean('current').notNull(),
  },
  (table) => [primaryKey({ columns: [table.statementDate, table.list, table.code] })],
);
