// What requests on the same dataset version share, computed once per version (decision 0104).

import type { DatasetVersion, LoadedDataset } from './dataset-load.js';
import type { CommoditySymbol } from './domain/index.js';
import {
  assessDataset,
  buildCalendar,
  type CalendarEntry,
  type CommodityOutlook,
  commodityOutlookFrom,
  type DatasetAssessment,
  type ForecastContext,
  type ForecastDataset,
  type HeatCheck,
  heatCheckFrom,
  type RegionEntry,
  regionRankingFrom,
} from './domain/index.js';

/** The model's expensive part: assessDataset, or a stand-in that counts its calls in tests. */
export type Assess = (dataset: ForecastDataset, context: ForecastContext) => DatasetAssessment;

/** Each part is built on its first use and then kept; callers only read what they get. */
export interface VersionAnswers {
  assessment(): DatasetAssessment;
  heatCheck(): HeatCheck;
  /** The rule-based outlook, before any synthesis. */
  outlook(symbol: CommoditySymbol): CommodityOutlook;
  regions(): RegionEntry[];
  /** Twelve months from the month of `now` (UTC); the latest month asked for is kept. */
  calendar(now: Date): CalendarEntry[];
}

export function createVersionAnswers(dataset: ForecastDataset, context: ForecastContext, assess: Assess): VersionAnswers {
  const assessment = once(() => assess(dataset, context));
  const outlooks = new Map<CommoditySymbol, CommodityOutlook>();
  let calendar: { month: string; entries: CalendarEntry[] } | undefined;
  return {
    assessment,
    heatCheck: once(() => heatCheckFrom(assessment())),
    outlook(symbol) {
      let outlook = outlooks.get(symbol);
      if (outlook === undefined) {
        outlook = commodityOutlookFrom(assessment(), symbol);
        outlooks.set(symbol, outlook);
      }
      return outlook;
    },
    regions: once(() => regionRankingFrom(assessment().regions)),
    calendar(now) {
      const month = now.toISOString().slice(0, 'YYYY-MM'.length);
      if (calendar?.month !== month) calendar = { month, entries: buildCalendar(dataset, now) };
      return calendar.entries;
    },
  };
}

/**
 * The answers of the latest version only: a load of another version replaces them, so a live
 * refresh invalidates the old answers and nothing accumulates. A load without a version gets
 * answers of its own, kept by nobody.
 */
export function createLatestVersionCache(assess: Assess = assessDataset): (loaded: LoadedDataset, context: ForecastContext) => VersionAnswers {
  let latest: { version: DatasetVersion; answers: VersionAnswers } | undefined;
  return (loaded, context) => {
    if (loaded.version === undefined) return createVersionAnswers(loaded.dataset, context, assess);
    if (latest?.version !== loaded.version) {
      latest = { version: loaded.version, answers: createVersionAnswers(loaded.dataset, context, assess) };
    }
    return latest.answers;
  };
}

function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
