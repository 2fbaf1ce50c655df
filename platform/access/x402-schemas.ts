import { z } from 'zod';

/** One entry of `accepts`: the x402 PaymentRequirements of the exact scheme on an EVM network. */
export const paymentRequirementsSchema = z.object({
  scheme: z.literal('exact'),
  network: z.string(),
  maxAmountRequired: z.string().describe('token base units (6 decimals)'),
  resource: z.string().describe('URL of the paid resource'),
  description: z.string(),
  mimeType: z.string(),
  payTo: z.string(),
  maxTimeoutSeconds: z.number().int(),
  asset: z.string().describe('token contract address'),
  extra: z.object({ name: z.string(), version: z.string() }).describe("the token's EIP-712 domain, which the payer signs under"),
});

/** The HTTP 402 body of x402: the requirements, why the request was not admitted, and any preview fields of the offer. */
export function paymentRequiredSchema<Preview extends z.ZodRawShape>(preview: Preview) {
  return z.object({
    x402Version: z.number().int(),
    error: z.string().describe('why no payment was accepted (the x402 reason code, then a description)'),
    accepts: z.array(paymentRequirementsSchema),
    ...preview,
  });
}

/** A route sold at a fixed price. */
const fixedPriceEntrySchema = z.object({
  price: z.object({ amount: z.string().describe('token base units'), currency: z.string(), decimals: z.number().int() }),
  network: z.string(),
  facilitator: z.string(),
  description: z.string(),
});

/** A route sold at the amount the client asks for, within bounds (Document 2 §2, POST /stream/open). */
const variableAmountEntrySchema = z.object({
  variableAmount: z.literal(true),
  minUsdc: z.number().describe('USDC, not base units'),
  maxUsdc: z.number().describe('USDC, not base units'),
  unitTypes: z.array(z.string()),
  network: z.string(),
  facilitator: z.string(),
  description: z.string(),
});

/** GET <prefix>/.well-known/x402 (Document 2 §2). */
export const x402DiscoverySchema = z.object({
  version: z.number().int(),
  endpoints: z.record(z.string(), z.union([fixedPriceEntrySchema, variableAmountEntrySchema])),
});
