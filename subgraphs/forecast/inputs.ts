import { z } from 'zod';
import { COMMODITY_SYMBOLS } from './domain/index.js';

/**
 * Edge validation of forecast requests, shared by REST, GraphQL and the MCP tools.
 * Body symbols are matched case-insensitively; an unknown one makes the body malformed (400),
 * while an unknown symbol in the path is "not supported" (404) (decision 0103).
 */
const MAX_POSITIONS = 200;
const MAX_NOTIONAL_USD = 1e13;

export const symbolSchema = z
  .string({ error: 'must be a string' })
  .trim()
  .toUpperCase()
  .pipe(z.enum(COMMODITY_SYMBOLS, { error: `must be one of ${COMMODITY_SYMBOLS.join(', ')}` }));

export const positionSchema = z.strictObject({
  symbol: symbolSchema,
  notionalUsd: z.number({ error: 'must be a number' }).positive('must be greater than 0').max(MAX_NOTIONAL_USD, `must be at most ${MAX_NOTIONAL_USD}`),
});

const positionsSchema = z
  .array(positionSchema, { error: 'must be an array of {symbol, notionalUsd}' })
  .min(1, 'must hold at least one position')
  .max(MAX_POSITIONS, `must hold at most ${MAX_POSITIONS} positions`);

export const portfolioBodySchema = z.strictObject({
  positions: positionsSchema,
  label: z.string().max(200, 'must be at most 200 characters').optional(),
});

export const scenarioBodySchema = z.strictObject({
  scenario: z.string({ error: 'must be a scenario id' }).min(1, 'is required').max(64, 'must be at most 64 characters'),
  positions: positionsSchema.optional(),
});

export const tcfdBodySchema = z.strictObject({
  positions: positionsSchema,
  entityName: z.string().max(200, 'must be at most 200 characters').optional(),
  reportingPeriod: z.string().max(50, 'must be at most 50 characters').optional(),
});

/** A path symbol: letters only, so anything else is malformed (400) rather than unsupported (404). */
export const symbolPathSchema = z.object({
  symbol: z.string().regex(/^[A-Za-z]{1,12}$/, 'must be 1 to 12 letters'),
});

export type PortfolioBody = z.infer<typeof portfolioBodySchema>;
export type ScenarioBody = z.infer<typeof scenarioBodySchema>;
export type TcfdBody = z.infer<typeof tcfdBodySchema>;

/** Turns a failed parse into one readable sentence naming each field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.') || 'body'}: ${issue.message}`).join('; ');
}
