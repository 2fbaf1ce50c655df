import { z } from 'zod';
import type { SignalEndpoint } from '../shared/signal-endpoint.js';
import { type Calibration, calibrationOf, scoredCall } from './domain/index.js';
import { type CandidateCall, fortyEightHourCalls } from './domain/index.js';
import { callId, type LedgerCall } from './domain/index.js';
import { type Ledger, sweepLedger } from './ledger-sweep.js';
import { fortyEightHourModel, fortyEightHourParameters, ledgerParameters } from './models.js';
import { calibrationSchema, ledgerCallSchema } from './schemas.js';

export interface FortyEightHourBody {
  /** The call as the ledger recorded it for this business day; null when no candidate series could be read. */
  call: LedgerCall | null;
  targetDate: string;
  candidates: CandidateCall[];
  track: Calibration;
}

const candidateSchema = z.object({
  series: z.string(),
  label: z.string(),
  units: z.string(),
  baseDate: z.string(),
  baseValue: z.number(),
  direction: z.enum(['ABOVE', 'AT_OR_BELOW']),
  probability: z.number().describe('0-1: probability of the stated direction'),
  stepsAhead: z.number().int().describe('observations ahead the history was counted over'),
  levelBucket: z.enum(['HIGH', 'MIDDLE', 'LOW']),
  levelPercentile: z.number(),
  momentumBucket: z.enum(['RISING', 'FALLING', 'FLAT']),
  momentumChange: z.number(),
  samples: z.number().int(),
  rises: z.number().int(),
  unconditional: z.boolean().describe('the bucket was too thin: the frequency is over all samples'),
});

export const fortyEightHourSchema = z.object({
  call: ledgerCallSchema.nullable(),
  targetDate: z.string(),
  candidates: z.array(candidateSchema),
  track: calibrationSchema.describe('the record of every 48-hour call in the ledger'),
});

/**
 * GET /intelligence/48h-call (no /v1): the business day's call, recorded in the ledger when first
 * served (or swept), answered as the ledger holds it, so that every replica serves the same call.
 */
export function fortyEightHourCallEndpoint(ledger: Ledger): SignalEndpoint<Record<string, never>, FortyEightHourBody> {
  return {
    id: '48h-call',
    summary: 'A dated, falsifiable call for the next two business days, with its evidence and resolution rule, recorded in the ledger',
    response: fortyEightHourSchema,
    async compute({ dataset, now }) {
      await sweepLedger(ledger, dataset, now);
      const calls = fortyEightHourCalls(dataset.series, now, fortyEightHourParameters);
      const recorded = await ledger.store.call(callId(fortyEightHourModel.id, fortyEightHourModel.subject, calls.period));
      const track = (await ledger.store.calls({ model: fortyEightHourModel.id })).map(scoredCall);
      return {
        body: { call: recorded ?? null, targetDate: calls.targetDate, candidates: calls.candidates, track: calibrationOf(track, ledgerParameters.reliabilityBuckets) },
        inputs: calls.inputs,
        missing: calls.missing,
      };
    },
    headers: (body): Record<string, string> =>
      body.call ? { 'x-rail-call-id': body.call.id, 'x-rail-call-probability': String(body.call.probability), 'x-rail-call-resolves-at': body.call.resolvesAt } : {},
    graphql: { field: 'fortyEightHourCall' },
  };
}
