// FRED observations JSON into raw observation records, field names as the API spells them.

import { z } from 'zod';
import { malformedBody } from '../errors.js';

const observationSchema = z.object({
  /** date: start of the observation period, YYYY-MM-DD (the first of the month for monthly series). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** value: the figure as a decimal string; "." when the value is missing. */
  value: z.string(),
});

export type FredObservation = z.infer<typeof observationSchema>;

const responseSchema = z.object({
  /** units: transformation applied by FRED; we ask for none, so only "lin" (the published level) is valid. */
  units: z.literal('lin'),
  /** observations: the series' values, in the requested order. */
  observations: z.array(observationSchema),
});

export type FredObservations = z.infer<typeof responseSchema>;

export function parseFredObservations(body: unknown): FredObservations {
  const result = responseSchema.safeParse(body);
  if (!result.success) throw malformedBody('fred', z.prettifyError(result.error), result.error);
  return result.data;
}
