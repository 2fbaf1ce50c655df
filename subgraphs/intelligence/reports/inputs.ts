import { z } from 'zod';
import { AppError } from '../../../platform/errors.js';
import { hasValidLeiCheckDigits } from '../entity/domain/index.js';
import type { ComplianceSubject, EsgSubject } from './service.js';

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

const MAX_NAME_LENGTH = 256;

/** GET /report/compliance: `lei` and/or `name`, at least one (decision 0066); the LEI's check digits are checked by complianceSubjectOf. */
export const complianceReportQuerySchema = z
  .object({
    lei: z.string().regex(LEI, 'lei must be an ISO 17442 LEI: 20 characters').optional(),
    name: z.string().trim().min(1, 'name must not be empty').max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`).optional(),
  })
  .strict()
  .refine((query) => query.lei !== undefined || query.name !== undefined, { message: 'give lei, name or both' });

export type ComplianceReportQuery = z.infer<typeof complianceReportQuerySchema>;

/** The subject of a compliance report: the LEI upper-cased and its check digits verified (INT_ERR_INVALID_SUBJECT), the name as given. */
export function complianceSubjectOf(query: ComplianceReportQuery): ComplianceSubject {
  const lei = query.lei?.toUpperCase();
  if (lei !== undefined && !hasValidLeiCheckDigits(lei)) throw new AppError('INT_ERR_INVALID_SUBJECT', { message: 'lei does not carry valid ISO 17442 check digits' });
  return { ...(lei ? { lei } : {}), ...(query.name ? { name: query.name } : {}) };
}

/** GET /report/treasury: `period` as YYYY-MM, optional (default: the current month). */
export const treasuryReportQuerySchema = z
  .object({
    period: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'period must be a month: YYYY-MM')
      .optional(),
  })
  .strict();

export type TreasuryReportQuery = z.infer<typeof treasuryReportQuerySchema>;
