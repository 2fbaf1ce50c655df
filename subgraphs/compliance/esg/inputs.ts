import { z } from 'zod';

/**
 * Edge validation of GET /esg/score/:lei and /esg/score/wallet/:wallet (Document 2 §4 query table):
 * strict query objects, bounded strings, booleans written true or false. The LEI path parameter is
 * checked by the service (ISO 17442 check digits, CMP_ERR_INVALID_LEI), as GET /lei/:lei does.
 */
const MAX_NAME_LENGTH = 256;

/** GLEIF RegistrationStatus values (LEI-CDF 3.1). */
export const GLEIF_REGISTRATION_STATUSES = [
  'ISSUED',
  'PENDING_VALIDATION',
  'PENDING_TRANSFER',
  'PENDING_ARCHIVAL',
  'LAPSED',
  'RETIRED',
  'MERGED',
  'DUPLICATE',
  'ANNULLED',
  'CANCELLED',
  'TRANSFERRED',
] as const;

const booleanText = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((text) => text === 'true');
const upper = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .transform((value) => value.trim().toUpperCase());

export const entityEsgQuerySchema = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters`).optional(),
  country: upper(2)
    .pipe(z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code'))
    .optional(),
  leiStatus: upper(32)
    .pipe(z.enum(GLEIF_REGISTRATION_STATUSES, { error: `must be a GLEIF registration status: ${GLEIF_REGISTRATION_STATUSES.join(', ')}` }))
    .optional(),
  refresh: booleanText.optional(),
  narrate: booleanText.optional(),
});

export const walletEsgQuerySchema = z.strictObject({ refresh: booleanText.optional(), narrate: booleanText.optional() });

export type EntityEsgQuery = z.infer<typeof entityEsgQuerySchema>;
