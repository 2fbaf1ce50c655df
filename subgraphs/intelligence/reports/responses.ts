import { z } from 'zod';
import { paymentRequiredSchema, paymentRequirementsSchema } from '../../../platform/access/x402-schemas.js';
import { type Report, RISK_LEVELS } from './domain/index.js';

/**
 * Response shapes of the reports service (Document 1 §2, §4): Fastify's compiled serialisers and
 * the OpenAPI document; checked against the domain type below and against GraphQL in shapes.test.ts.
 */
export const reportResponseSchema = z.object({
  reportType: z.string(),
  period: z.string().describe('YYYY-MM'),
  generatedAt: z.string().describe('ISO 8601'),
  synthesis: z.object({
    summary: z.string(),
    keyFindings: z.array(z.string()),
    riskLevel: z.enum(RISK_LEVELS),
    narrative: z.record(z.string(), z.string()).describe('section title to text'),
    recommendations: z.array(z.string()),
    dataQuality: z.enum(['LIVE', 'PARTIAL', 'ESTIMATED']),
    model: z.string().describe('the synthesiser that wrote the summary; the rule-based one says so'),
  }),
  data: z.record(z.string(), z.unknown()).describe('the oracle data used in the synthesis'),
  sources: z.array(z.string()),
});

export const reportPaymentRequiredSchema = paymentRequiredSchema({
  reportPreview: z.object({
    type: z.string(),
    whatYouGet: z.array(z.string()),
    fee: z.object({ amountUsdc: z.string(), asset: z.string() }),
  }),
});

export const reportsHealthSchema = z.object({ status: z.string(), service: z.string(), version: z.string() });

export const reportsErrorSchema = z.object({ error: z.string(), code: z.string() });

/** The agent-to-agent card (GET /reports/.well-known/agent.json): each report a skill, with its payment requirements. */
export const agentCardSchema = z.object({
  protocolVersion: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string(),
  version: z.string(),
  provider: z.object({ organization: z.string(), url: z.string() }),
  capabilities: z.object({ streaming: z.boolean(), pushNotifications: z.boolean() }),
  defaultInputModes: z.array(z.string()),
  defaultOutputModes: z.array(z.string()),
  skills: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      tags: z.array(z.string()),
      examples: z.array(z.string()),
      endpoint: z.object({ method: z.string(), url: z.string() }),
      payment: z.object({ x402Version: z.number().int(), accepts: z.array(paymentRequirementsSchema) }),
    }),
  ),
});

type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type ResponseSchemasMatchTheService = [Assert<MutuallyAssignable<Omit<z.infer<typeof reportResponseSchema>, 'data'>, Omit<Report, 'data'>>>];
