import { z } from 'zod';
import parametersJson from '../data/parameters/sovereign-debt.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeSovereignDebt, seriesAsOfDay, type SovereignDebt, type SovereignDebtParameters } from './domain/index.js';

const parameters = parametersJson as SovereignDebtParameters;

const sovereignSchema = z.object({
  debtToGdp: z.number().nullable().describe('gross debt, percent of GDP, on the basis debtBasis names; null when not openly available (never estimated)'),
  debtAsOf: z.string().nullable(),
  debtBasis: z.string(),
  fiscalDeficitTrend: z.string(),
  yieldDynamic: z.string(),
  sustainabilityScore: z.number().nullable().describe('0-100, higher = more sustainable'),
  signal: z.string(),
  memberOf: z.string().nullable(),
});

export const sovereignDebtSchema = z.object({
  systemicSignals: z.object({ globalDebtRegime: z.string(), contagionRisk: z.string(), settlementImpact: z.string() }),
  sovereigns: z.record(z.string(), sovereignSchema).describe('keyed by sovereign: United States, European Union, United Kingdom, Japan, and the member states Germany and Italy'),
  narrative: z.string(),
});

/** GraphQL cannot key an object by sovereign: the sovereigns become a list, each naming itself. */
export function sovereignDebtToGraphQL(body: SovereignDebt) {
  return { ...body, sovereigns: Object.entries(body.sovereigns).map(([sovereign, entry]) => ({ sovereign, ...entry })) };
}

/** GET /v1/intelligence/sovereign-debt (spec §2 shape 11; method: docs/intelligence/sovereign-debt.md). */
export const sovereignDebtEndpoint: SignalEndpoint<Record<string, never>, SovereignDebt> = {
  id: 'sovereign-debt',
  summary: 'Sovereign debt sustainability of the United States, the European Union, the United Kingdom and Japan',
  response: sovereignDebtSchema,
  compute: ({ dataset, now }) => computeSovereignDebt(seriesAsOfDay(dataset.series, now.toISOString().slice(0, 10)), parameters),
  headers: (body) => ({ 'x-rail-sovereign-regime': body.systemicSignals.globalDebtRegime }),
  graphql: { field: 'sovereignDebt', toGraphQL: sovereignDebtToGraphQL },
};
