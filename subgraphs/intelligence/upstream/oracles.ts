import { z } from 'zod';
import type { UpstreamTransport } from '../../../platform/upstream.js';
import type { EsgReportInputs, MacroInputs } from '../reports/domain/index.js';
import { entityEsgSchema } from './compliance.js';

/**
 * The reports' clients of the stability and ESG oracles (fees) and the compliance oracle's entity
 * ESG, through their public REST interfaces, in-process or over HTTP alike. A failed or malformed
 * answer is null: the report is then PARTIAL, not an error.
 */
const nullableNumber = z.number().nullable();
const reliabilitySchema = z.object({
  isHealthy: z.boolean(),
  stability: z.object({ currentScore: z.number(), averageScore24h: z.number() }),
  peg: z.object({ deviationBps: nullableNumber, deviationThresholdBps: z.number() }),
  confidence: z.object({ score: z.number() }),
  usdHealth: z.object({
    score: nullableNumber,
    structuralOutlook: z.string(),
    usdStrengthConsensus: z.string(),
    confidenceInOfficialData: z.string(),
    yieldCurve: z.object({ state: z.string(), spread: nullableNumber }),
    breakevenInflation: z.object({ value: nullableNumber, elevated: z.boolean() }),
    fedBalanceSheet: z.object({ trend: z.string(), trillions: nullableNumber }),
    gold: z.object({ priceUsd: nullableNumber, debasementSignal: z.boolean() }),
    alerts: z.array(z.string()),
    divergenceAlerts: z.array(z.string()),
  }),
  dataQuality: z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']),
  asOf: z.string(),
});
const historySchema = z.array(z.object({ timestamp: z.number(), stabilityScore: z.number(), overall: z.string() }));
const esgScoreSchema = z.object({
  scores: z.object({ environmental: z.number(), social: z.number(), governance: z.number(), average: z.number() }),
  fee: z.object({ bps: z.number(), tier: z.string() }),
  dataQuality: z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']),
  asOf: z.string(),
});

async function read<T>(transport: UpstreamTransport, path: string, schema: z.ZodType<T>, headers: Record<string, string> = {}): Promise<T | null> {
  try {
    const response = await transport({ method: 'GET', path, headers });
    if (response.status !== 200) return null;
    const parsed = schema.safeParse(response.body);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface OracleReportSources {
  macro(): Promise<Omit<MacroInputs, 'sources'>>;
  esg(subject: { lei?: string; address?: string }): Promise<Omit<EsgReportInputs, 'sources' | 'subject'>>;
}

export function createOracleReportSources(options: { fees: UpstreamTransport; compliance: UpstreamTransport; internalKey: string | undefined }): OracleReportSources {
  return {
    async macro() {
      const [reliability, history] = await Promise.all([read(options.fees, '/stability/reliability', reliabilitySchema), read(options.fees, '/stability/api/history', historySchema)]);
      return { reliability, history };
    },
    async esg(subject) {
      const headers: Record<string, string> = options.internalKey ? { 'x-internal-key': options.internalKey } : {};
      const entityPath = subject.lei ? `/compliance/esg/score/${encodeURIComponent(subject.lei)}` : `/compliance/esg/score/wallet/${encodeURIComponent(subject.address ?? '')}`;
      const [rail, entity] = await Promise.all([read(options.fees, '/esg/esg-score', esgScoreSchema), read(options.compliance, entityPath, entityEsgSchema, headers)]);
      return { rail, entity };
    },
  };
}
