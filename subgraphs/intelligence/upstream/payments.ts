import { z } from 'zod';
import { AppError } from '../../../platform/errors.js';
import { UpstreamAnswerError, upstreamErrorText, type UpstreamTransport } from '../../../platform/upstream.js';
import type { TreasurySummaryInputs } from '../reports/domain/index.js';

/**
 * The treasury report's client of the payments subgraph (DESIGN.md §3): GET
 * /integration/treasury-summary?period=YYYY-MM with the internal key, in-process or over HTTP
 * alike. The payments subgraph answers in aggregate only, every cell too small to show without
 * showing an institution withheld as null (decision 0066); this client reads that answer as it is.
 * No payments in reach, another status or another shape: 503 GEN_ERR_UNAVAILABLE, never a 500.
 */

export const PAYMENTS_SERVICE = 'payments';

const count = z.number().int().nullable();
const statusCounts = { settled: count, blocked: count, failed: count, pending: count };
const summarySchema = z.object({
  period: z.string(),
  from: z.string(),
  to: z.string(),
  disclosure: z.object({ minimumCount: z.number(), minimumContributors: z.number(), maxDominantSharePct: z.number(), withheldCells: z.number() }),
  settlement: z.object({ payments: count, ...statusCounts, settledVolumeUsd: z.string().nullable(), meanSecondsToSettle: z.number().nullable() }),
  corridors: z.array(
    z.object({
      corridor: z.string(),
      payments: z.number(),
      settled: count,
      settlementRatePct: z.number().nullable(),
      settledVolumeUsd: z.string().nullable(),
      meanSecondsToSettle: z.number().nullable(),
    }),
  ),
  withheldCorridors: z.number(),
  automatedDecisions: z.object({
    settlements: z.object({ decisions: count, ...statusCounts }),
    holds: z.object({ holds: count, held: count, released: count, dismissed: count }),
    violatedRules: z.array(z.object({ rule: z.string(), holds: z.number() })),
  }),
});

export interface TreasurySource {
  summary(period: string): Promise<TreasurySummaryInputs>;
}

function unavailable(cause: unknown): AppError {
  return new AppError('GEN_ERR_UNAVAILABLE', { message: 'The payments service is unavailable; retry later.', retryAfterSeconds: 30, cause });
}

export function createTreasurySource(options: { transport: UpstreamTransport; internalKey: string | undefined }): TreasurySource {
  return {
    async summary(period) {
      const path = `/integration/treasury-summary?period=${encodeURIComponent(period)}`;
      const response = await options.transport({ method: 'GET', path, headers: options.internalKey ? { 'x-internal-key': options.internalKey } : {} }).catch((error: unknown) => {
        throw unavailable(error);
      });
      if (response.status !== 200) throw unavailable(new UpstreamAnswerError(PAYMENTS_SERVICE, response.status, `/integration/treasury-summary: ${upstreamErrorText(response)}`));
      const parsed = summarySchema.safeParse(response.body);
      if (!parsed.success) throw unavailable(new UpstreamAnswerError(PAYMENTS_SERVICE, response.status, '/integration/treasury-summary: the answer does not have the documented shape'));
      return parsed.data;
    },
  };
}
