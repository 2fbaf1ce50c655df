// Pure: US Drought Monitor categorical areas into the 0-5 drought index of the contract.

import { CATEGORICAL_STATISTICS, type UsdmRow } from './parse.js';

export interface UsdmDrought {
  /** Sum over D0..D4 of pct × (class + 1) / 100: 0 no drought, 5 all of the area in D4. */
  droughtIndex: number;
  /** ISO date (YYYY-MM-DD) of the map used. */
  mapDate: string;
}

const CLASSES = ['D0', 'D1', 'D2', 'D3', 'D4'] as const;

/** The latest categorical map, its states' areas summed so each state weighs by its size. */
export function mapDroughtIndex(rows: readonly UsdmRow[]): UsdmDrought | undefined {
  const categorical = rows.filter((r) => r.StatisticFormatID === CATEGORICAL_STATISTICS);
  const mapDate = categorical
    .map((r) => isoDate(r.MapDate))
    .sort()
    .at(-1);
  if (mapDate === undefined) return undefined;
  const latest = categorical.filter((r) => isoDate(r.MapDate) === mapDate);
  const classAreas = CLASSES.map((c) => sum(latest.map((r) => r[c])));
  const total = sum(latest.map((r) => r.None)) + sum(classAreas);
  if (total <= 0) return undefined;
  const weighted = classAreas.reduce((acc, area, k) => acc + ((100 * area) / total) * (k + 1), 0);
  return { droughtIndex: weighted / 100, mapDate };
}

/** YYYYMMDD or ISO 8601 into YYYY-MM-DD. */
export function isoDate(serviceDate: string): string {
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(serviceDate);
  return compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : serviceDate.slice(0, 10);
}

function sum(values: readonly number[]): number {
  return values.reduce((acc, v) => acc + v, 0);
}
