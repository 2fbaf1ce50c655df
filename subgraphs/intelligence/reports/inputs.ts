import { z } from 'zod';
import { AppError } from '../../../platform/errors.js';
import type { EsgSubject } from './service.js';

const LEI = /^[0-9A-Za-z]{18}[0-9]{2}$/;
const WALLET = /^0x[0-9a-fA-F]{40}$/;

/** GET /report/esg: `address` (an EVM wallet) or `lei`, exactly one (decision 0038). */
export const esgReportQuerySchema = z
  .object({
    address: z.string().regex(WALLET, 'address must be an EVM address: 0x and 40 hex digits').optional(),
    lei: z.string().regex(LEI, 'lei must be an ISO 17442 LEI: 20 characters').optional(),
  })
  .strict()
  .refine((query) => (query.address === undefined) !== (query.lei === undefined), { message: 'give exactly one of address or lei' });

export type EsgReportQuery = z.infer<typeof esgReportQuerySchema>;

/** The normalised subject: an LEI upper-cased, an address lower-cased (one cache entry per subject). */
export function esgSubjectOf(query: EsgReportQuery): EsgSubject {
  if (query.lei) return { lei: query.lei.toUpperCase() };
  if (query.address) return { address: query.address.toLowerCase() };
  throw new AppError('GEN_ERR_BAD_REQUEST', { message: 'give exactly one of address or lei' });
}
