// GDACS GeoJSON event list into raw feature records, field names as the API spells them.

import { z } from 'zod';
import { malformedBody } from '../errors.js';

const propertiesSchema = z.object({
  /** eventtype: FL flood, TC tropical cyclone, DR drought, EQ earthquake, WF wildfire, VO volcano. */
  eventtype: z.string(),
  /** eventid: GDACS event id, unique within an event type. */
  eventid: z.number(),
  /** episodeid: the episode (update) of the event this feature describes. */
  episodeid: z.number(),
  /** name: human-readable event name. */
  name: z.string(),
  /** alertlevel: Green, Orange or Red. */
  alertlevel: z.string(),
  /** iscurrent: "true" while the event is ongoing (a string in the feed). */
  iscurrent: z.union([z.string(), z.boolean()]),
  /** fromdate: event start, ISO 8601 without zone (UTC). */
  fromdate: z.string(),
  /** todate: latest time of the event, ISO 8601 without zone (UTC). */
  todate: z.string(),
});

const featureSchema = z.object({
  /** bbox: the event's extent [minLon, minLat, maxLon, maxLat]; a point for earthquakes. */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  /** geometry: the event's centroid (type Point) in the event list. */
  geometry: z.object({ type: z.string(), coordinates: z.unknown() }),
  /** properties: GDACS event attributes. */
  properties: propertiesSchema,
});

export type GdacsFeature = z.infer<typeof featureSchema>;

const responseSchema = z.object({
  /** type: always FeatureCollection. */
  type: z.literal('FeatureCollection'),
  /** features: one per event (latest episode). */
  features: z.array(featureSchema),
});

/** A null body (204 No Content) is an empty list. */
export function parseGdacsEvents(body: unknown): GdacsFeature[] {
  if (body === null) return [];
  const result = responseSchema.safeParse(body);
  if (!result.success) throw malformedBody('gdacs', z.prettifyError(result.error), result.error);
  return result.data.features;
}
