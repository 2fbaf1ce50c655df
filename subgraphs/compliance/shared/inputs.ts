import { z } from 'zod';

/**
 * The request fields several compliance families validate alike, shared by REST and GraphQL: every
 * string has a maximum length; identifiers are checked for form before any lookup.
 */
const MAX_NAME_LENGTH = 256;

export const walletAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address: 0x and 40 hex digits');
/** The form of an LEI (ISO 17442): 20 characters, digits and capital letters; its check digits are verified by the service. */
export const leiText = z
  .string()
  .regex(/^[0-9A-Za-z]{20}$/, 'must be an LEI: 20 letters and digits')
  .transform((value) => value.toUpperCase());
export const name = z.string().trim().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`);
export const countryCode = z
  .string()
  .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
  .transform((value) => value.toUpperCase());

export const walletParamsSchema = z.object({ wallet: walletAddress });
export const leiParamsSchema = z.object({ lei: z.string().max(64) });
