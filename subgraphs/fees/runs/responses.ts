import { z } from 'zod';
import { timestamp } from '../shared/responses.js';

/**
 * Response fragments of the stability and ESG oracles' REST paths (Document 1 §2; decision 0035):
 * the oracle's state from its recorded runs, the data quality and the intelligence object.
 */
export const oracleDataQuality = z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']).describe('LIVE: every feed answered as configured; PARTIAL: some fell back or are unavailable; ESTIMATED: inputs estimated');
export const oracleAsOf = z.string().describe('Date of the newest observation the run used');
export const oracleStateSchema = z.object({
  status: z.enum(['SUCCESS', 'FAILED']).describe('The newest finished run: SUCCESS, or FAILED while the last good output is served'),
  lastUpdate: timestamp.describe('When the output served was produced'),
  uptimeSeconds: z.number().int().describe('Since the start of the current unbroken series of successful runs'),
  uptimePct: z.number().describe('Successful runs / runs due over the last 24 hours, from the record'),
  updateFrequencySeconds: z.number().int(),
});

export const intelligenceSchema = z
  .object({
    reasoning: z.string(),
    confidence: z.number().describe('0-1'),
    alerts: z.array(z.string()).max(3),
    outlook: z.enum(['IMPROVING', 'STABLE', 'DETERIORATING', 'UNCERTAIN']),
    model: z.string(),
    generatedAt: timestamp,
  })
  .describe('Qualitative only; the scores stay authoritative. Omitted when the synthesiser failed');
