import { z } from 'zod';

/** The body of every compliance error ({error, code}; shared/error-shape.ts), as the OpenAPI document shows it. */
export const complianceErrorSchema = z.object({ error: z.string(), code: z.string().describe('catalog code (docs/errors.md)') });
