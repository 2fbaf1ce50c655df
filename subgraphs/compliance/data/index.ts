// The compliance reference data shipped in this folder (PROVENANCE.md), parsed once into the
// domain's plain types. Each loader reads and parses its files on first call and returns the same
// object after that: the SDN list takes about 0.2 s, so a process that never screens never pays it.
// A malformed file throws from its loader.

import type { Dataset, FatfLists, LeiDataset, PepRecord, RegulatoryKeyDate, SdnEntry } from '../domain/index.js';
import { readDataFile } from './files.js';
import { parseDigitalCurrencyAddresses, parseOfacFiles } from './ofac.js';
import { countryCodesSchema, parseFatfLists, parseHeadsOfState, parseKeyDates, parseLeiRecords, parseMeps, parseUsFederalPeps, type Sources, sourcesSchema } from './reference.js';

export { readDataFile } from './files.js';
export { labelledVopPairs, type SanctionsProbe, sanctionsProbeRecall, sanctionsProbes, vopMatcherEvaluation } from './matching-sets.js';
export { labelledNamePairs, pepMatcherEvaluation, sanctionsMatcherEvaluation } from './name-pairs.js';
export {
  digitalCurrencyAddressesIn,
  formatDigitalCurrencyAddresses,
  OfacDataError,
  ofacField,
  type OfacFiles,
  ofacPrograms,
  parseDigitalCurrencyAddresses,
  parseOfacCsv,
  parseOfacFiles,
} from './ofac.js';
export { leiStatus, type Sources, sourcesSchema } from './reference.js';

const readJson = (path: string): unknown => JSON.parse(readDataFile(path));

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

/** sources.json: source, URL, as-of date and licence of every dataset (refresh.ts updates ofacSdn). */
export const dataSources = once((): Sources => sourcesSchema.parse(readJson('sources.json')));

/** The OFAC SDN list: entries with their aliases, addresses and digital-currency addresses. */
export const sdnList = once((): Dataset<SdnEntry> => {
  const records = parseOfacFiles(
    { sdn: readDataFile('ofac/sdn.csv'), add: readDataFile('ofac/add.csv'), alt: readDataFile('ofac/alt.csv'), comments: readDataFile('ofac/sdn_comments.csv') },
    parseDigitalCurrencyAddresses(readDataFile('ofac/digital_currency_addresses.csv')),
  );
  return { provenance: dataSources().ofacSdn, records };
});

export interface PepDatasets {
  usFederal: Dataset<PepRecord>;
  headsOfState: Dataset<PepRecord>;
  meps: Dataset<PepRecord>;
}

/** The three PEP sources, each with its own provenance (their as-of dates differ by years). */
export const pepDatasets = once((): PepDatasets => {
  const sources = dataSources();
  const { codes } = countryCodesSchema.parse(readJson('pep/country-codes.json'));
  return {
    usFederal: { provenance: sources.pepUsFederal, records: parseUsFederalPeps(readJson('pep/us_federal_peps.json')) },
    headsOfState: { provenance: sources.pepHeadsOfState, records: parseHeadsOfState(readDataFile('pep/world_heads_of_state_government_wikidata_2022-10-10.csv'), codes) },
    meps: { provenance: sources.pepMeps, records: parseMeps(readDataFile('pep/european_parliament_meps_9th_term_wikidata_2022-11-21.csv'), codes) },
  };
});

/** Every PEP record of the three sources. */
export const pepRecords = once((): readonly PepRecord[] => {
  const { usFederal, headsOfState, meps } = pepDatasets();
  return [...usFederal.records, ...headsOfState.records, ...meps.records];
});

/** GLEIF Level 1 records and Level 2 relationships. */
export const leiRecords = once((): LeiDataset => parseLeiRecords(readJson('lei/lei_records.json'), dataSources().lei));

/**
 * The FATF black and grey lists: the current plenary and the two before it. The one FATF dataset of
 * the compliance families (fatf/fatf_lists.json); domain/fatf.ts is the one lookup in it.
 */
export const fatfLists = once((): FatfLists => parseFatfLists(readJson('fatf/fatf_lists.json'), dataSources().fatf));

/** The dated, cited milestones of MiCA, SFDR, CSRD and the GENIUS Act. */
export const regulatoryKeyDates = once((): Dataset<RegulatoryKeyDate> => ({ provenance: dataSources().keyDates, records: parseKeyDates(readJson('key_dates.json')) }));
