import { z } from 'zod';
import parametersJson from '../data/parameters/resonance.json' with { type: 'json' };
import { seriesAsOf } from '../domain/index.js';
import type { SameType } from '../planetary/shape.js';
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { cycleCatalogue } from './catalogues.js';
import { computeResonance, dateInQuarters, type Resonance, RESONANCE_DOMAINS, type ResonanceParameters } from './domain/index.js';

const parameters = parametersJson as ResonanceParameters;

export const resonanceSchema = z.object({
  summary: z.object({
    systemResonanceScore: z.number().describe('0-100'),
    regime: z.enum(['RESONANCE_CASCADE', 'HIGH_RESONANCE', 'ELEVATED_RESONANCE', 'MODERATE_RESONANCE', 'LOW_RESONANCE']),
    resonantPairs: z.number().int(),
    clusters: z.number().int(),
    criticalClusters: z.number().int(),
    approachingAlignment: z.number().int(),
  }),
  clusters: z.array(
    z.object({
      id: z.string(),
      signals: z.array(z.string()),
      labels: z.array(z.string()),
      domains: z.array(z.enum(RESONANCE_DOMAINS)),
      avgPhaseDiff: z.number().describe('mean pairwise phase difference, degrees'),
      combinedAmplitude: z.number().describe('|sum of amplitude-weighted phasors|, in typical-cycle amplitudes'),
      amplificationFactor: z.number().describe('combined amplitude over the root-sum-square amplitude (the sum at random phases)'),
      historicalAnalogs: z.array(z.string()).describe('past quarters when the members were coherent at the same part of their cycle'),
      dangerLevel: z.enum(['CRITICAL', 'HIGH', 'ELEVATED', 'LOW']),
    }),
  ),
  approachingAlignment: z.array(
    z.object({
      signalA: z.string(),
      signalB: z.string(),
      currentDiff: z.number().describe('degrees'),
      quartersToAlignment: z.number().describe('wrapped phase difference / relative angular velocity'),
      mechanism: z.string(),
    }),
  ),
  synthesis: z.string(),
});

const agrees: SameType<z.infer<typeof resonanceSchema>, Resonance> = true;
void agrees;

/** GET /v1/intelligence/resonance (spec §4 "GET /resonance"). */
export const resonanceEndpoint: SignalEndpoint<Record<string, never>, Resonance> = {
  id: 'resonance',
  summary: 'Phase synchrony of 28 economic, financial, geopolitical, climate and commodity cycles: resonant clusters and approaching alignments',
  response: resonanceSchema,
  compute: ({ dataset, now }) => {
    const today = now.toISOString().slice(0, 10);
    return computeResonance(seriesAsOf(dataset.series, today), cycleCatalogue(), parameters, dateInQuarters(today));
  },
  headers: () => ({}),
  graphql: { field: 'resonance' },
};
