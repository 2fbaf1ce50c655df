// US Drought Monitor statistics JSON into raw rows, keyed by the service's documented column names.

import { z } from 'zod';
import { malformedBody } from '../errors.js';

/** Categorical statistics (statisticsType=2): each square mile is counted in exactly one class. */
export const CATEGORICAL_STATISTICS = 2;

const DOCUMENTED_COLUMNS = ['MapDate', 'StateAbbreviation', 'None', 'D0', 'D1', 'D2', 'D3', 'D4', 'ValidStart', 'ValidEnd', 'StatisticFormatID'] as const;

const byLowerCase = new Map<string, string>(DOCUMENTED_COLUMNS.map((c) => [c.toLowerCase(), c]));

/** The service has answered in PascalCase (its CSV headers) and camelCase; both map to the documented names. */
function withDocumentedKeys(row: unknown): unknown {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return row;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [byLowerCase.get(k.toLowerCase()) ?? k, v]));
}

/** Figures come as JSON numbers or as decimal strings ("1234.56"). */
const figure = z.union([
  z.number(),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

/** YYYYMMDD or ISO 8601 (YYYY-MM-DD, optionally with a time). */
const serviceDate = z.string().regex(/^(\d{8}|\d{4}-\d{2}-\d{2}(T[\d:.]+)?)$/);

const rowSchema = z.object({
  /** MapDate: the Tuesday the map is valid for. */
  MapDate: serviceDate,
  /** StateAbbreviation: two-letter postal code of the state. */
  StateAbbreviation: z.string().optional(),
  /** None: area with no drought class, square miles. */
  None: figure,
  /** D0: abnormally dry (only D0 in categorical statistics). */
  D0: figure,
  /** D1: moderate drought. */
  D1: figure,
  /** D2: severe drought. */
  D2: figure,
  /** D3: extreme drought. */
  D3: figure,
  /** D4: exceptional drought. */
  D4: figure,
  /** ValidStart: first day of the week the map covers. */
  ValidStart: serviceDate,
  /** ValidEnd: last day of the week the map covers. */
  ValidEnd: serviceDate,
  /** StatisticFormatID: 1 traditional (cumulative, D0 includes D1-D4), 2 categorical. */
  StatisticFormatID: figure,
});

export type UsdmRow = z.infer<typeof rowSchema>;

const responseSchema = z.array(z.preprocess(withDocumentedKeys, rowSchema));

export function parseUsdmRows(body: unknown): UsdmRow[] {
  const result = responseSchema.safeParse(body);
  if (!result.success) throw malformedBody('usdm', z.prettifyError(result.error), result.error);
  return result.data;
}
