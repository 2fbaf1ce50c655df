import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { EsgOracleParameters, RailEsgInputs } from '../esg/domain/index.js';
import parameters from './esg-oracle-parameters.json' with { type: 'json' };

const wdiSchema = z.object({
  source: z.string(),
  url: z.string(),
  licence: z.string(),
  jurisdictions: z.record(z.string(), z.string()),
  indicators: z.record(z.string(), z.record(z.string(), z.object({ year: z.number().int(), value: z.number() }))),
});
/** fatf-standing.json: derived from compliance's FATF lists by scripts/derive-fees-fatf.ts (npm run data:derive), with their provenance. */
const fatfSchema = z.object({
  source: z.string(),
  url: z.string(),
  asOf: z.string(),
  licence: z.string(),
  publisher: z.string(),
  plenary: z.string(),
  statementDate: z.string(),
  callForAction: z.array(z.string()),
  increasedMonitoring: z.array(z.string()),
});

const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`./esg/${name}`, import.meta.url), 'utf8'));
let inputs: RailEsgInputs | undefined;

/** The shipped snapshot (data/esg, PROVENANCE.md there), parsed once. */
export function loadRailEsgInputs(): RailEsgInputs {
  if (inputs) return inputs;
  const wdi = wdiSchema.parse(read('wdi-indicators.json'));
  const fatf = fatfSchema.parse(read('fatf-standing.json'));
  inputs = {
    jurisdictions: wdi.jurisdictions,
    indicators: wdi.indicators,
    fatf,
    sources: [`${wdi.source} (${wdi.url}), ${wdi.licence}`, `${fatf.publisher}, ${fatf.plenary} (${fatf.url})`],
  };
  return inputs;
}

export const esgOracleParameters: EsgOracleParameters = parameters;
