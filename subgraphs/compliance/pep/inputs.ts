import { z } from 'zod';

/** Edge validation of POST /compliance/pep-screen (Document 2 §4): a strict body, bounded strings. */
const MAX_TEXT_LENGTH = 256;
const text = z.string().trim().min(1, 'must not be empty').max(MAX_TEXT_LENGTH, `must be at most ${MAX_TEXT_LENGTH} characters`);

export const pepScreenBodySchema = z.strictObject({
  name: text,
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code')
    .transform((value) => value.toUpperCase())
    .optional(),
  position: text.optional(),
});

export type PepScreenBody = z.infer<typeof pepScreenBodySchema>;
