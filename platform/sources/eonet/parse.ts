// EONET v3 events JSON into raw event records, field names as the API spells them.

import { z } from 'zod';
import { malformedBody } from '../errors.js';

const position = z.tuple([z.number(), z.number()]);

const pointGeometry = z.object({
  /** date: when this position was observed, ISO 8601 UTC. */
  date: z.string(),
  /** type: GeoJSON geometry type. */
  type: z.literal('Point'),
  /** coordinates: [longitude, latitude]. */
  coordinates: position,
});

const polygonGeometry = z.object({
  /** date: when this outline was observed, ISO 8601 UTC. */
  date: z.string(),
  /** type: GeoJSON geometry type. */
  type: z.literal('Polygon'),
  /** coordinates: linear rings of [longitude, latitude]. */
  coordinates: z.array(z.array(position)),
});

const eventSchema = z.object({
  /** id: EONET event id, e.g. EONET_6305. */
  id: z.string(),
  /** title: the event's name. */
  title: z.string(),
  /** closed: when the event ended; null while it is open. */
  closed: z.string().nullable(),
  /** categories: the event's categories ({id, title}); wildfires have id "wildfires". */
  categories: z.array(z.object({ id: z.string(), title: z.string() })),
  /** geometry: the event's positions over time (fire perimeters or points). */
  geometry: z.array(z.discriminatedUnion('type', [pointGeometry, polygonGeometry])),
});

export type EonetEvent = z.infer<typeof eventSchema>;
export type EonetGeometry = EonetEvent['geometry'][number];

const responseSchema = z.object({
  /** events: the events matching the query. */
  events: z.array(eventSchema),
});

export function parseEonetEvents(body: unknown): EonetEvent[] {
  const result = responseSchema.safeParse(body);
  if (!result.success) throw malformedBody('eonet', z.prettifyError(result.error), result.error);
  return result.data.events;
}
