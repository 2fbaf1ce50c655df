import { z } from 'zod';
import parametersJson from '../data/parameters/tectonic.json' with { type: 'json' };
import { seriesAsOf } from '../domain/index.js';
import { tippingPointTable } from '../planetary/reference.js';
import type { SameType } from '../planetary/shape.js';
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { faultLineCatalogue } from './catalogues.js';
import { computeTectonic, dateInQuarters, type Tectonic, TECTONIC_DOMAINS, type TectonicParameters } from './domain/index.js';

const parameters = parametersJson as TectonicParameters;
const statusEnum = z.enum(['RUPTURED', 'CRITICAL', 'ELEVATED', 'BUILDING', 'STABLE']);
const domainEnum = z.enum(TECTONIC_DOMAINS);

export const tectonicSchema = z.object({
  summary: z.object({
    byStatus: z.object({ RUPTURED: z.number().int(), CRITICAL: z.number().int(), ELEVATED: z.number().int(), BUILDING: z.number().int(), STABLE: z.number().int() }),
    avgStress: z.number().describe('mean current stress of the fault lines, 0-100'),
    mostUrgent: z.array(z.string()).describe('labels of the lines nearest rupture'),
    regime: z.enum(['CASCADING_RUPTURE', 'PRE_RUPTURE', 'ELEVATED_STRESS', 'BUILDING', 'STABLE']),
  }),
  faultLines: z.array(
    z.object({
      node: z.object({
        id: z.string(),
        label: z.string(),
        domain: domainEnum,
        baselineStress: z.number().describe('stress at the start of the trend window (or the prior at its baseline year)'),
        accumulationRate: z.number().describe('stress points a year'),
        threshold: z.number().describe('stress at which the line ruptures'),
      }),
      currentStress: z.number().describe('own stress plus the stress transferred from coupled lines, 0-100'),
      yearsToRupture: z.number().nullable().describe('(threshold - currentStress) / accumulationRate; 0 when ruptured; null when not accumulating'),
      status: statusEnum,
      transferredFrom: z.array(z.string()).describe('ids of the lines whose stress loads this one, largest first'),
    }),
  ),
  ruptureSequence: z.array(z.object({ nodeId: z.string(), label: z.string(), domain: domainEnum, yearsToRupture: z.number() })),
  synthesis: z.string(),
});

const agrees: SameType<z.infer<typeof tectonicSchema>, Tectonic> = true;
void agrees;

const tipping = tippingPointTable();

/** GET /v1/intelligence/tectonic (spec §4 "GET /tectonic"). */
export const tectonicEndpoint: SignalEndpoint<Record<string, never>, Tectonic> = {
  id: 'tectonic',
  summary: 'Latent structural stress on 21 fault lines in 5 domains: stress transfer, years to rupture, rupture sequence',
  response: tectonicSchema,
  compute: ({ dataset, now }) => {
    const today = now.toISOString().slice(0, 10);
    const answer = computeTectonic(seriesAsOf(dataset.series, today), faultLineCatalogue(), parameters, dateInQuarters(today) / 4);
    // The permafrost line's rupture anchor is the published threshold of that table.
    return { ...answer, inputs: [...answer.inputs, tipping.source] };
  },
  headers: () => ({}),
  graphql: { field: 'tectonic' },
};
