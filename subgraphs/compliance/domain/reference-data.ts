// The reference datasets the compliance domain reads, as plain typed structures. data/index.ts
// parses the shipped snapshots into these shapes once; the domain only ever sees them.

/** Where a dataset came from: every figure the oracle reports can be traced to one of these. */
export interface DatasetProvenance {
  /** Publisher and, for a copy, the repository and commit it came from. */
  source: string;
  /** Where the data is published; for compiled facts, "per date: citation.url" (each item cites its page). */
  url: string;
  /** The date the publisher's data describes: YYYY-MM-DD, or as precisely as the source states it ("mid-2026"). */
  asOf: string;
  licence: string;
}

export interface Dataset<T> {
  provenance: DatasetProvenance;
  records: readonly T[];
}

/** OFAC SDN_Type: `-0-` (empty) in the file means an entity. */
export type SdnType = 'individual' | 'entity' | 'vessel' | 'aircraft';

export type SdnAliasType = 'aka' | 'fka' | 'nka';

export interface SdnAlias {
  altNum: number;
  type: SdnAliasType;
  name: string;
  /** OFAC alt_remarks, e.g. "Low quality a.k.a."; null when empty. */
  remarks: string | null;
}

export interface SdnAddress {
  addNum: number;
  address: string | null;
  /** OFAC's "City/State/Province/Postal Code". */
  cityStateZip: string | null;
  country: string | null;
}

export interface DigitalCurrencyAddress {
  /** OFAC's currency code as written in the remarks (XBT, ETH, USDT ...). */
  currency: string;
  address: string;
}

export interface SdnEntry {
  entNum: number;
  name: string;
  type: SdnType;
  /** `SDNTK] [FTO` in the file becomes ['SDNTK', 'FTO']. */
  programs: readonly string[];
  title: string | null;
  aliases: readonly SdnAlias[];
  /** Only address rows with some content; OFAC's all-`-0-` placeholder rows are dropped. */
  addresses: readonly SdnAddress[];
  digitalCurrencyAddresses: readonly DigitalCurrencyAddress[];
  /** The full Remarks field, with the sdn_comments.csv continuation joined on; null when empty. */
  remarks: string | null;
}

export type PepSource = 'us-congress-legislators' | 'wikidata-heads-of-state-government' | 'wikidata-european-parliament';

export interface PepRecord {
  /** Stable within its source: bioguide-based id for the US, Wikidata QID (+ position) otherwise. */
  id: string;
  name: string;
  /** Other renderings of the name the source gives (e.g. with middle name or nickname). */
  otherNames: readonly string[];
  position: string;
  /** ISO 3166-1 alpha-2 where the source's country resolves to one; null otherwise. */
  country: string | null;
  /** The country as the source writes it. */
  countryName: string;
  /** In office at the source's as-of date. */
  current: boolean;
  source: PepSource;
}

export interface LeiOtherName {
  name: string;
  type: string;
}

export interface LeiRecord {
  lei: string;
  legalName: string;
  otherNames: readonly LeiOtherName[];
  /** ACTIVE when the entity is active and its registration current (ISSUED, PENDING_*); else the registration status (LAPSED, RETIRED ...), or the entity status when that is not ACTIVE. */
  status: string;
  entityStatus: string;
  registrationStatus: string;
  /** ISO 3166-1 alpha-2 (or a subdivision such as US-DE) as GLEIF gives it; null when absent. */
  jurisdiction: string | null;
  /** Country of the legal address. */
  country: string | null;
  directParent: string | null;
  ultimateParent: string | null;
  /** GLEIF's parent links (API v1 `relationships` links): REPORTED, REPORTING_EXCEPTION, or null when the snapshot's source had none. */
  directParentLink: LeiParentLink | null;
  ultimateParentLink: LeiParentLink | null;
  /** GLEIF reporting-exception reason (NATURAL_PERSONS, NON_CONSOLIDATING, NO_KNOWN_PERSON, NON_PUBLIC ...); null when none is known. */
  directParentException: string | null;
  ultimateParentException: string | null;
  /** Record date (YYYY-MM-DD) of the version kept. */
  asOf: string;
}

export type LeiParentLink = 'REPORTED' | 'REPORTING_EXCEPTION';

export interface LeiRelationship {
  child: string;
  parent: string;
  type: 'IS_DIRECTLY_CONSOLIDATED_BY' | 'IS_ULTIMATELY_CONSOLIDATED_BY' | 'IS_INTERNATIONAL_BRANCH_OF';
  status: string;
}

export interface LeiDataset extends Dataset<LeiRecord> {
  relationships: readonly LeiRelationship[];
}

export interface FatfJurisdiction {
  /** ISO 3166-1 alpha-2. */
  code: string;
  name: string;
}

export interface FatfList {
  plenary: string;
  /** YYYY-MM-DD. */
  statementDate: string;
  /** High-risk jurisdictions subject to a call for action. */
  blacklist: readonly (FatfJurisdiction & { call: string })[];
  /** Jurisdictions under increased monitoring. */
  greylist: readonly FatfJurisdiction[];
}

export interface FatfLists {
  provenance: DatasetProvenance;
  current: FatfList;
  history: readonly FatfList[];
}

export interface RegulatoryKeyDate {
  regime: string;
  instrument: string;
  event: string;
  /** YYYY-MM-DD. */
  date: string;
  citation: { url: string; publisher: string };
}
