import { z } from 'zod';
import { PEP_MATCH_CONFIDENCES, PEP_RISK_LEVELS } from './domain/index.js';
import type { PepScreenService } from './service.js';

const pepSource = z.enum(['us-congress-legislators', 'wikidata-heads-of-state-government', 'wikidata-european-parliament']);

/** The PEP screening result (Document 2 §2), with the FATF R.12 attestation of decision 0016. */
export const pepScreenResultSchema = z.object({
  riskLevel: z.enum(PEP_RISK_LEVELS),
  pepMatches: z.array(
    z.object({
      name: z.string(),
      matchedName: z.string(),
      position: z.string(),
      country: z.string().nullable().describe('ISO 3166-1 alpha-2'),
      countryName: z.string(),
      current: z.boolean().describe('in office at the source as-of date'),
      matchConfidence: z.enum(PEP_MATCH_CONFIDENCES),
      score: z.number().describe('name similarity, 0.60-1'),
      positionCheck: z.enum(['CORROBORATED', 'CONTRADICTED', 'NOT_GIVEN']),
      source: pepSource,
      recordId: z.string(),
    }),
  ),
  eddRequired: z.boolean(),
  fatfR12: z.object({
    recommendation: z.literal('R.12'),
    screened: z.literal(true),
    listsScreened: z.array(z.object({ list: pepSource, records: z.number().int(), source: z.string(), asOf: z.string() })),
    matchThreshold: z.number(),
    countryFilter: z.string().nullable(),
    pepIdentified: z.boolean(),
    highestConfidence: z.enum(PEP_MATCH_CONFIDENCES).nullable(),
    eddRequired: z.boolean(),
    note: z.string(),
  }),
  cachedAt: z.string().describe('ISO 8601'),
  expiresAt: z.string().describe('ISO 8601, 6 hours after cachedAt'),
  fromCache: z.boolean(),
});

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type PepScreenSchemaMatchesTheService = Assert<MutuallyAssignable<z.infer<typeof pepScreenResultSchema>, Awaited<ReturnType<PepScreenService['pepScreen']>>>>;
