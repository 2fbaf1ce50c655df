import { z } from 'zod';

/**
 * Edge validation of POST /compliance/ubo-chain (Document 2 §4): a strict body. The LEI is bounded
 * and upper-cased here; its form and ISO 17442 check digits are verified by the service
 * (400 CMP_ERR_INVALID_LEI), as for GET /lei/:lei.
 */
export const uboChainBodySchema = z.strictObject({
  lei: z
    .string({ error: 'must be a string' })
    .max(64, 'must be an LEI: 20 letters and digits')
    .transform((value) => value.trim().toUpperCase()),
  deep: z.boolean({ error: 'must be true or false' }).default(false),
});

export type UboChainBody = z.infer<typeof uboChainBodySchema>;
