// Open-Meteo archive JSON into raw per-location records, field names as the API spells them.

import { z } from 'zod';
import { malformedBody } from '../errors.js';

const dailySchema = z.object({
  /** time: the days of the series, ISO YYYY-MM-DD in the requested time zone (GMT). */
  time: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
  /** temperature_2m_mean: mean air temperature at 2 m over the day; null where ERA5 has no value yet. */
  temperature_2m_mean: z.array(z.number().nullable()),
});

const locationSchema = z
  .object({
    /** latitude: the grid cell's latitude, snapped from the requested one. */
    latitude: z.number(),
    /** longitude: the grid cell's longitude, snapped from the requested one. */
    longitude: z.number(),
    /** location_id: index of the location in the request; present only for multi-location requests. */
    location_id: z.number().int().optional(),
    /** daily_units: unit of each daily variable. */
    daily_units: z.object({
      /** daily_units.temperature_2m_mean: we never ask for another unit, so anything but °C is a format change. */
      temperature_2m_mean: z.literal('°C'),
    }),
    /** daily: the requested daily variables, column-wise. */
    daily: dailySchema,
  })
  .refine((loc) => loc.daily.time.length === loc.daily.temperature_2m_mean.length, {
    message: 'daily.time and daily.temperature_2m_mean differ in length',
  });

/** One location of an archive response: one object for a single point, an array for several. */
export type OpenMeteoLocation = z.infer<typeof locationSchema>;

const responseSchema = z.union([z.array(locationSchema).min(1), locationSchema]);

export function parseOpenMeteoDaily(body: unknown): OpenMeteoLocation[] {
  const result = responseSchema.safeParse(body);
  if (!result.success) throw malformedBody('open-meteo', z.prettifyError(result.error), result.error);
  return Array.isArray(result.data) ? result.data : [result.data];
}
