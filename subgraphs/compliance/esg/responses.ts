import { z } from 'zod';
import { ENTITY_ESG_TIERS, ESG_COVERAGES } from './domain/index.js';
import type { EntityEsgService } from './service.js';

/** The entity ESG score as answered (Document 2 §2 "Entity ESG score", plus how it was made). */
const provenanceSchema = z.object({ source: z.string(), url: z.string(), asOf: z.string(), licence: z.string() });
const pillar = z.enum(['environmental', 'social', 'governance']);

export const entityEsgScoreSchema = z.object({
  lei: z.string(),
  entityName: z.string(),
  composite: z.number().describe('0-100, mean of the three pillars'),
  environmental: z.number(),
  social: z.number(),
  governance: z.number(),
  feeTier: z.enum(ENTITY_ESG_TIERS),
  feeSurcharge: z.number().describe('fraction of the amount: the ESG fee at the tier floor (decision 0016)'),
  coverage: z.enum(ESG_COVERAGES),
  computedAt: z.number().int().describe('epoch seconds'),
  expiresAt: z.number().int().describe('epoch seconds, 7 days after computedAt'),
  fromCache: z.boolean(),
  narration: z.string().optional().describe('2-3 sentences, only with narrate=true; omitted when the synthesiser fails or takes over 8 s'),
  narrationModel: z.string().optional(),
  methodology: z.string().describe('docs/entity-esg-methodology.md'),
  assessedPillars: z.array(pillar),
  inputs: z.array(
    z.object({
      pillar,
      input: z.enum(['registration', 'corroboration', 'ownershipTransparency', 'jurisdiction']),
      value: z.string(),
      score: z.number(),
      weight: z.number(),
      source: z.enum(['lei-record', 'fatf-lists', 'declared']),
      asOf: z.string(),
    }),
  ),
  missingInputs: z.array(z.string()),
  dataSources: z.object({ lei: provenanceSchema, fatf: provenanceSchema.extend({ plenary: z.string() }) }),
});

type Answer<Capability extends keyof EntityEsgService> = Awaited<ReturnType<EntityEsgService[Capability]>>;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type EntityEsgSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof entityEsgScoreSchema>, Answer<'entityEsg'>>>,
  Assert<MutuallyAssignable<z.infer<typeof entityEsgScoreSchema>, Answer<'entityEsgForWallet'>>>,
];
