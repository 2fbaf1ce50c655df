// The neutral shapes the adapters map publishers' answers to. A subgraph maps these onto its own
// domain types in its own code; nothing here knows a subgraph.

/** One dated figure of a published series (FRED, a stablecoin's supply): the series' common shape. */
export interface DatedObservation {
  /** YYYY-MM-DD: the start of the observation period. */
  date: string;
  value: number;
}

/** Longitude then latitude, WGS 84 degrees, GeoJSON order. */
export type Bbox = [minLon: number, minLat: number, maxLon: number, maxLat: number];

export interface GeoPoint {
  lat: number;
  lon: number;
}

/** Disaster alerts by kind: floods, storms (tropical cyclones), droughts, and every other type. */
export interface AlertCounts {
  flood: number;
  storm: number;
  drought: number;
  other: number;
}
