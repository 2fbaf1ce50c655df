import { z } from 'zod';
import { paymentRequiredSchema } from '../../../platform/access/x402-schemas.js';
import { VOP_RESULTS } from './domain/index.js';
import type { ComplianceService } from './service.js';

/**
 * Response shapes of the compliance oracle (Document 2 §2, §4): Fastify's compiled serialisers and
 * the OpenAPI document; checked against the service's types below.
 */
export const vopPaymentRequiredSchema = paymentRequiredSchema({});

export const vopResultSchema = z.object({
  requestId: z.string().describe('UUID'),
  result: z.enum(VOP_RESULTS),
  proceedSafe: z.boolean(),
  score: z.number().nullable().describe('0-100; null for NOT_REGISTERED'),
  resolvedBy: z.enum(['LEI_EXACT_MATCH', 'LEGAL_NAME_MATCH', 'ALIAS_MATCH', 'NOT_REGISTERED']),
  registeredName: z.string().nullable(),
  registeredLei: z.string().nullable(),
  leiStatus: z.string().nullable(),
  message: z.string(),
  attestation: z.object({ fatfR16Compliant: z.boolean(), regulatoryNote: z.string() }),
  grayZoneReasoning: z
    .object({
      assessment: z.enum(['LIKELY_CORRECT', 'UNCERTAIN', 'LIKELY_WRONG']),
      confidence: z.enum(['HIGH', 'MEDIUM', 'LOW']),
      likelyCause: z.string(),
      rationale: z.string(),
      proceedRecommendation: z.enum(['PROCEED', 'PROCEED_WITH_CAUTION', 'MANUAL_REVIEW']),
      processedAt: z.number().int().describe('epoch seconds'),
    })
    .optional()
    .describe('present only for PROCEED_FLAGGED and PROCEED_UNVERIFIED; advisory'),
});

export const registeredEntitySchema = z.object({
  walletAddress: z.string(),
  legalName: z.string(),
  lei: z.string().nullable(),
  leiStatus: z.string().nullable(),
  aliases: z.array(z.string()),
  registeredAt: z.number().int().describe('epoch seconds'),
  registrationType: z.enum(['SELF_DECLARED', 'REGISTRY_VERIFIED']),
  country: z.string().nullable(),
});

export const vopHistorySchema = z.object({
  walletAddress: z.string(),
  count: z.number().int(),
  checks: z.array(
    z.object({
      requestId: z.string(),
      result: z.enum(VOP_RESULTS),
      score: z.number().nullable(),
      resolvedBy: z.string(),
      submittedName: z.string(),
      submittedLei: z.string().nullable(),
      checkedAt: z.number().int().describe('epoch seconds'),
    }),
  ),
});

/** GET /compliance/lei/search (decision 0034). */
export const leiSearchSchema = z.object({
  query: z.string(),
  count: z.number().int(),
  matches: z.array(
    z.object({ lei: z.string(), legalName: z.string(), leiStatus: z.string(), jurisdiction: z.string().nullable(), matchedName: z.string(), score: z.number().describe('VoP name similarity, 0-100') }),
  ),
});

export const leiRecordSchema = z.object({
  lei: z.string(),
  legalName: z.string(),
  leiStatus: z.string(),
  jurisdiction: z.string().nullable(),
  otherNames: z.array(z.string()),
  wallets: z.array(registeredEntitySchema),
});

export const regulatoryCalendarSchema = z.object({
  count: z.number().int(),
  events: z.array(
    z.object({
      framework: z.enum(['MiCA', 'SFDR', 'CSRD', 'GENIUS Act']),
      event: z.string(),
      effectiveDate: z.string().describe('YYYY-MM-DD'),
      jurisdictions: z.array(z.string()),
      summary: z.string(),
      railAlignment: z.string().describe('the service feature that addresses the obligation'),
      instrument: z.string(),
      citation: z.object({ url: z.string(), publisher: z.string() }),
    }),
  ),
});

export const deregisteredSchema = z.object({ walletAddress: z.string(), active: z.boolean(), deactivatedAt: z.number().int() });

type Answer<Capability extends keyof ComplianceService> = Awaited<ReturnType<ComplianceService[Capability]>>;
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type ResponseSchemasMatchTheService = [
  Assert<MutuallyAssignable<z.infer<typeof vopResultSchema>, Answer<'verifyPayee'>>>,
  Assert<MutuallyAssignable<z.infer<typeof registeredEntitySchema>, Answer<'lookup'>>>,
  Assert<MutuallyAssignable<z.infer<typeof vopHistorySchema>, Answer<'history'>>>,
  Assert<MutuallyAssignable<z.infer<typeof leiRecordSchema>, Answer<'lei'>>>,
  Assert<MutuallyAssignable<z.infer<typeof deregisteredSchema>, Answer<'deregister'>>>,
  Assert<MutuallyAssignable<z.infer<typeof regulatoryCalendarSchema>, Answer<'regulatoryCalendar'>>>,
];
