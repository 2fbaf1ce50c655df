import { z } from 'zod';
import { countryCode, leiText, name, walletAddress } from '../shared/inputs.js';

/**
 * Edge validation of compliance requests, shared by REST and GraphQL. Unknown fields are refused;
 * every string has a maximum length; identifiers are checked for form before any lookup.
 */
const MAX_ALIASES = 20;

export const leiSearchQuerySchema = z.strictObject({ name });

export const vopVerifyBodySchema = z.strictObject({
  walletAddress,
  submittedName: name,
  submittedLei: leiText.optional(),
});

/** A registration names its entity: by legalName, or by an LEI whose registry record gives the name (decision 0014). */
export const registerBodySchema = z
  .strictObject({
    walletAddress,
    legalName: name.optional(),
    country: countryCode.optional(),
    aliases: z.array(name).max(MAX_ALIASES, `must hold at most ${MAX_ALIASES} names`).optional(),
    lei: leiText.optional(),
  })
  .refine((body) => body.legalName !== undefined || body.lei !== undefined, { message: 'legalName is required unless an lei is given', path: ['legalName'] });

export type VopVerifyBody = z.infer<typeof vopVerifyBodySchema>;
export type RegisterBody = z.infer<typeof registerBodySchema>;
