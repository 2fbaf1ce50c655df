import { z } from 'zod';
import { isP256Point, publicP256JwkShape } from '../../../platform/credentials.js';
import { leiText } from '../shared/inputs.js';

/**
 * Edge validation of the know-your-agent requests (Document 2 §2 "Agent (KYA)", §4): strict objects
 * (an unknown field is refused), every string bounded, identifiers checked for form before any lookup.
 * An LEI's check digits are verified by the service, against the registry's rule.
 */
export const MAX_AGENT_NAME_LENGTH = 128;
const MAX_ENTITY_LENGTH = 256;
const MAX_FRAMEWORK_LENGTH = 64;
const MAX_PROTOCOLS = 16;
const MAX_WHITELIST = 100;
const MAX_CURRENCY_PAIRS = 50;
/** A cap above a trillion USD is a typing error, not a limit. */
const MAX_USD_CAP = 1e12;
/** Directory page size (default and most). */
export const MAX_DIRECTORY_PAGE = 100;

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** An agent id as the service issues it: `agt_` and 16 random bytes in base64url. */
export const agentIdText = z.string().regex(/^agt_[A-Za-z0-9_-]{22}$/, 'must be an agentId: agt_ and 22 base64url characters');

/** A protocol name (x402, ap2, mcp, a2a ...): lower-case letters, digits, dot, dash, underscore. */
const protocol = z
  .string()
  .max(32, 'must be at most 32 characters')
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'must be a protocol name such as x402 or ap2'));

/** `<SRC>|<DST>`: two currency or asset codes of 3 to 5 letters, e.g. USD|EUR or USDC|EUR. */
const currencyPair = z
  .string()
  .max(16, 'must be at most 16 characters')
  .transform((value) => value.trim().toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{3,5}\|[A-Z]{3,5}$/, 'must be <SRC>|<DST>, e.g. USD|EUR'));

/**
 * Counted on the number's shortest decimal text (what JSON.parse read), not by multiplying: 100 x a
 * large amount is not exact in binary floating point.
 */
const hasAtMostTwoDecimals = (value: number) => /^\d+(\.\d{1,2})?$/.test(String(value));

/** A cap in USD: positive, whole cents. */
const usdCap = z
  .number({ error: 'must be a number' })
  .positive('must be greater than 0')
  .max(MAX_USD_CAP, `must be at most ${MAX_USD_CAP}`)
  .refine(hasAtMostTwoDecimals, 'must have at most 2 decimal places (cents)');

const esgFloor = z.number({ error: 'must be a number' }).min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100').refine(hasAtMostTwoDecimals, 'must have at most 2 decimal places');

const unique = <T>(values: T[]) => [...new Set(values)];

/** The mandate's terms (Document 2 §2 "Mandate body" and the registration's mandate object). */
const mandateTerms = {
  maxNotionalUsd: usdCap.optional(),
  dailyCapUsd: usdCap.optional(),
  counterpartyWhitelist: z.array(leiText).max(MAX_WHITELIST, `must hold at most ${MAX_WHITELIST} LEIs`).transform(unique).optional(),
  currencyPairs: z.array(currencyPair).max(MAX_CURRENCY_PAIRS, `must hold at most ${MAX_CURRENCY_PAIRS} pairs`).transform(unique).optional(),
  esgFloor: esgFloor.optional(),
  ap2Compatible: z.boolean().optional(),
};

/**
 * The agent's own public key: a P-256 JWK (kty EC, crv P-256, x, y) whose point is on the curve.
 * A private member (d) is refused as an unknown field: a private key is never sent, nor kept.
 * The members WebCrypto and JOSE libraries add (alg, use, kid, ext, key_ops) are accepted and dropped.
 */
export const agentPublicKeySchema = z
  .strictObject({
    ...publicP256JwkShape,
    alg: z.literal('ES256').optional(),
    use: z.literal('sig').optional(),
    kid: z.string().max(128).optional(),
    ext: z.boolean().optional(),
    key_ops: z
      .array(z.enum(['verify']))
      .max(1)
      .optional(),
  })
  .refine(isP256Point, 'must be a point of the P-256 curve')
  .transform(({ kty, crv, x, y }) => ({ kty, crv, x, y }));

export const agentRegisterBodySchema = z.strictObject({
  name: text(MAX_AGENT_NAME_LENGTH),
  framework: text(MAX_FRAMEWORK_LENGTH).optional(),
  ownerEntity: text(MAX_ENTITY_LENGTH).optional(),
  ownerEmail: z.email('must be an email address').max(254, 'must be at most 254 characters').optional(),
  ownerLei: leiText.optional(),
  protocols: z.array(protocol).max(MAX_PROTOCOLS, `must hold at most ${MAX_PROTOCOLS} protocols`).transform(unique).optional(),
  publicKey: agentPublicKeySchema.optional(),
  discoverable: z.boolean().default(false),
  mandate: z.strictObject(mandateTerms).optional(),
});

export const agentMandateBodySchema = z.strictObject({ agentId: agentIdText, ...mandateTerms });

export const agentParamsSchema = z.strictObject({ id: agentIdText });

/** POST /agent/:id/authorize (internal): the key a caller of the settlement agent presented. */
export const agentAuthorizeBodySchema = z.strictObject({ agentKey: z.string().max(128, 'must be at most 128 characters') });

/** A query-string count: digits only. */
const countText = (fallback: number, max: number) =>
  z
    .string()
    .max(6, 'must be at most 6 characters')
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`))
    .optional()
    .transform((value) => value ?? fallback);

export const agentDirectoryQuerySchema = z.strictObject({
  ownerEntity: text(MAX_ENTITY_LENGTH).optional(),
  limit: countText(MAX_DIRECTORY_PAGE, MAX_DIRECTORY_PAGE).pipe(z.number().min(1, 'must be at least 1')),
  offset: countText(0, 100_000),
});

export type MandateTerms = z.infer<z.ZodObject<typeof mandateTerms>>;
export type AgentRegisterBody = z.infer<typeof agentRegisterBodySchema>;
export type AgentMandateBody = z.infer<typeof agentMandateBodySchema>;
export type AgentDirectoryQuery = z.infer<typeof agentDirectoryQuerySchema>;
