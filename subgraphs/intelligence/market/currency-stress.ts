import { z } from 'zod';
import parametersJson from '../data/parameters/currency-stress.json' with { type: 'json' };
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { computeCurrencyStress, type CurrencyEntry, type CurrencyStress, type CurrencyStressParameters, seriesAsOfDay } from './domain/index.js';

const parameters = parametersJson as CurrencyStressParameters;

const entryShape = {
  signal: z.string(),
  '30dChange': z.string().describe("signed percent change of the currency's value in dollars over 30 days; for USD the broad dollar index"),
  score: z.number().describe('0-100'),
  rate: z.number().describe('latest rate, units per USD (the index for USD)'),
  asOf: z.string(),
};

export const currencyStressSchema = z.object({
  dollarRegime: z.string(),
  stressIndex: z.number().describe('0-100'),
  g10: z.record(z.string(), z.object({ ...entryShape, capitalFlowDirection: z.string().optional(), interventionRisk: z.string().optional() })),
  emergingMarkets: z.record(z.string(), z.object({ ...entryShape, pbocPressure: z.string().optional(), carryRisk: z.string().optional() })),
  settlementCorridorImpact: z.record(z.string(), z.string()),
  narrative: z.string(),
});

/** A currency entry as GraphQL can name it: the currency as a field, `30dChange` as `change30d`. */
function entryToGraphQL(currency: string, entry: CurrencyEntry) {
  const { '30dChange': change30d, ...rest } = entry;
  return { currency, change30d, ...rest };
}

/** GraphQL names neither `30dChange` nor objects keyed by currency or corridor: lists of named entries. */
export function currencyStressToGraphQL(body: CurrencyStress) {
  return {
    ...body,
    g10: Object.entries(body.g10).map(([currency, entry]) => entryToGraphQL(currency, entry)),
    emergingMarkets: Object.entries(body.emergingMarkets).map(([currency, entry]) => entryToGraphQL(currency, entry)),
    settlementCorridorImpact: Object.entries(body.settlementCorridorImpact).map(([corridor, impact]) => ({ corridor, impact })),
  };
}

/** GET /v1/intelligence/currency-stress (spec §2 shape 14; method: docs/intelligence/currency-stress.md). */
export const currencyStressEndpoint: SignalEndpoint<Record<string, never>, CurrencyStress> = {
  id: 'currency-stress',
  summary: 'Dollar regime and stress of ten G10 and ten emerging-market currencies',
  response: currencyStressSchema,
  compute: ({ dataset, now }) => computeCurrencyStress(seriesAsOfDay(dataset.series, now.toISOString().slice(0, 10)), parameters),
  headers: (body) => ({ 'x-rail-dollar-regime': body.dollarRegime, 'x-rail-currency-stress': String(body.stressIndex) }),
  graphql: { field: 'currencyStress', toGraphQL: currencyStressToGraphQL },
};
