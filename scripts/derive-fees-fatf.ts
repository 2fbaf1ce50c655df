/**
 * The fees subgraph's FATF standing (subgraphs/fees/data/esg/fatf-standing.json, an input of the
 * ESG oracle's governance pillar), derived from compliance's FATF lists: the project's one FATF
 * source. It keeps the current plenary's ISO codes (call for action, increased monitoring) and the
 * source's provenance; the fees code reads only the derived file and never compliance's code.
 *
 * `npm run data:derive` writes it; test/derived-datasets.test.ts fails when the file differs from
 * what this script would write now, so a change of the compliance lists is carried over by running it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseCommandLine } from '../platform/cli.js';

const root = new URL('../', import.meta.url);
/** The FATF lists, as compliance keeps them, and their entry in compliance's dataset provenance. */
export const FATF_SOURCE = 'subgraphs/compliance/data/fatf/fatf_lists.json';
export const FATF_SOURCE_PROVENANCE = 'subgraphs/compliance/data/sources.json';
/** The derived file the fees subgraph reads. */
export const FEES_FATF = 'subgraphs/fees/data/esg/fatf-standing.json';

const listed = z.array(z.object({ name: z.string(), iso2: z.string().regex(/^[A-Z]{2}$/) })).min(1);
const fatfListsSchema = z.object({
  meta: z.object({ publisher: z.string() }),
  current: z.object({ plenary: z.string(), statement_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), high_risk_call_for_action: listed, increased_monitoring: listed }),
});
const provenanceSchema = z.object({ fatf: z.object({ source: z.string(), url: z.string().url(), asOf: z.string(), licence: z.string() }) });

const readJson = (path: string): unknown => JSON.parse(readFileSync(new URL(path, root), 'utf8'));

/** The derived file's text, as this script writes it, from the source as it is now. */
export function derivedFeesFatf(): string {
  const { meta, current } = fatfListsSchema.parse(readJson(FATF_SOURCE));
  const { source, url, asOf, licence } = provenanceSchema.parse(readJson(FATF_SOURCE_PROVENANCE)).fatf;
  const derived = {
    source,
    url,
    asOf,
    licence,
    derivedFrom: `${FATF_SOURCE} (current), provenance in ${FATF_SOURCE_PROVENANCE} (fatf)`,
    derivedBy: 'scripts/derive-fees-fatf.ts (npm run data:derive); do not edit by hand',
    publisher: meta.publisher,
    plenary: current.plenary,
    statementDate: current.statement_date,
    callForAction: current.high_risk_call_for_action.map((entry) => entry.iso2),
    increasedMonitoring: current.increased_monitoring.map((entry) => entry.iso2),
  };
  return `${JSON.stringify(derived, null, 1)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  parseCommandLine({ usage: `usage: npm run data:derive\nWrites ${FEES_FATF} from ${FATF_SOURCE} and its provenance (a test fails while it is stale).` });
  writeFileSync(new URL(FEES_FATF, root), derivedFeesFatf());
  console.log(`wrote ${FEES_FATF} from ${FATF_SOURCE}`);
}
