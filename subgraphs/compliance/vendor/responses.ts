import { z } from 'zod';
import { ENTITY_ESG_TIERS } from '../esg/domain/index.js';
import type { VendorRiskAnswer } from './service.js';

/** The vendor risk result of Document 2 §2, field for field. */
export const vendorRiskResultSchema = z.strictObject({
  vendorRiskScore: z.number().min(0).max(100),
  riskTier: z.enum(['LOW', 'MODERATE', 'ELEVATED', 'HIGH']),
  recommendation: z.string(),
  entity: z.strictObject({ name: z.string(), lei: z.string().nullable() }),
  breakdown: z.strictObject({ complianceScore: z.number(), esgScore: z.number(), complianceWeight: z.number(), esgWeight: z.number() }),
  compliance: z.strictObject({
    verdict: z.enum(['APPROVED', 'FLAGGED', 'BLOCKED']),
    signals: z.array(z.string()),
    sanctions: z.boolean(),
    pep: z.boolean(),
    fatfBlacklist: z.boolean(),
  }),
  esg: z.strictObject({ score: z.number(), tier: z.enum(ENTITY_ESG_TIERS), source: z.string() }),
  generatedAt: z.string(),
  refreshAt: z.string(),
});

// The service's answer and the documented shape must agree, field for field.
type Agrees<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const vendorRiskShapeAgrees: Agrees<VendorRiskAnswer, z.infer<typeof vendorRiskResultSchema>> = true;
