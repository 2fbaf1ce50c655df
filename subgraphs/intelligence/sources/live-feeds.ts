// One live load of every routed series through the feed layer (platform/sources): each publisher
// asked once per file it publishes (FRED once per series), failures kept per series with their kind.

import {
  type DatedObservation,
  type FeedBaseUrls,
  type FeedOptions,
  fetchBoeSeries,
  fetchEcbSeries,
  fetchFredObservations,
  fetchGistempGlobal,
  fetchGmlCo2,
  fetchGscpiWorkbook,
  fetchPinkSheetMonthly,
  type GmlCo2File,
  isoDay,
  mapBoeDaily,
  mapEcbDaily,
  mapFredObservations,
  mapGistempMonthly,
  mapGmlAnnualMeans,
  mapGmlMonthlyMeans,
  mapGscpiMonthly,
  mapPinkSheetColumn,
  parseBoeCsv,
  parseEcbCsv,
  parseFredObservations,
  parseGistempTable,
  parseGmlTable,
  parseGscpiWorkbook,
  parsePinkSheetMonthly,
  SourceUnavailableError,
} from '../../../platform/sources/index.js';
import type { LiveFeedName, LiveRoute } from './live-series.js';

export type LiveFeedOptions = FeedOptions & { baseUrls: FeedBaseUrls };

export interface LiveLoadContext {
  options: LiveFeedOptions;
  /** FRED's routes fail as not configured without it. Never logged. */
  fredApiKey: string | undefined;
  /** The first day to ask a windowed publisher (FRED, ECB, BoE) for, per series id. */
  since(id: string): Date;
}

/** Why a series was not read live: the feed layer's kinds, plus the ones decided here. */
export type LiveFailureKind = SourceUnavailableError['kind'] | 'not-configured' | 'no-observations' | 'unexpected';

export interface LiveFailure {
  feed: LiveFeedName;
  ids: string[];
  kind: LiveFailureKind;
  reason: string;
}

export interface LiveLoad {
  series: Map<string, DatedObservation[]>;
  failures: LiveFailure[];
}

/** FRED requests in flight at once: well inside its limit of 120 a minute per key. */
export const FRED_CONCURRENCY = 4;

type Routed<Route extends LiveRoute = LiveRoute> = ReadonlyArray<readonly [id: string, route: Route]>;
type Outcome = { id: string; observations: DatedObservation[] } | { failure: LiveFailure };

/** Loads every routed series; never throws (each failure is an entry of `failures`). */
export async function loadLiveSeries(routed: Routed, context: LiveLoadContext): Promise<LiveLoad> {
  const groups = Map.groupBy(routed, ([, route]) => route.feed);
  const outcomes = (await Promise.all([...groups].map(([feed, members]) => loadFeed(feed, members, context)))).flat();
  const load: LiveLoad = { series: new Map(), failures: [] };
  for (const outcome of outcomes) {
    if ('failure' in outcome) load.failures.push(outcome.failure);
    else if (outcome.observations.length === 0) load.failures.push(failure(routeFeed(routed, outcome.id), [outcome.id], 'no-observations', 'the publisher answered no observation'));
    else load.series.set(outcome.id, outcome.observations);
  }
  return load;
}

function routeFeed(routed: Routed, id: string): LiveFeedName {
  return routed.find(([candidate]) => candidate === id)![1].feed;
}

function loadFeed(feed: LiveFeedName, members: Routed, context: LiveLoadContext): Promise<Outcome[]> {
  switch (feed) {
    case 'fred':
      return loadFred(members as Routed<Extract<LiveRoute, { feed: 'fred' }>>, context);
    case 'worldbank':
      return guarded(feed, members, () => loadPinkSheet(members as Routed<Extract<LiveRoute, { feed: 'worldbank' }>>, context.options));
    case 'noaa-gml':
      return Promise.all(
        [...Map.groupBy(members as Routed<Extract<LiveRoute, { feed: 'noaa-gml' }>>, ([, route]) => route.file)].map(([file, ids]) =>
          guarded(feed, ids, () => loadGmlFile(file, ids, context.options)),
        ),
      ).then((all) => all.flat());
    case 'gistemp':
      return guarded(feed, members, async () => sameForAll(members, mapGistempMonthly(parseGistempTable(await fetchGistempGlobal(context.options)))));
    case 'nyfed':
      return guarded(feed, members, async () => sameForAll(members, mapGscpiMonthly(await parseGscpiWorkbook(await fetchGscpiWorkbook(context.options)))));
    case 'ecb':
      return eachAlone(feed, members as Routed<Extract<LiveRoute, { feed: 'ecb' }>>, async (id, route) =>
        mapEcbDaily(parseEcbCsv(await fetchEcbSeries(context.options, route, isoDay(context.since(id))))),
      );
    case 'boe':
      return eachAlone(feed, members as Routed<Extract<LiveRoute, { feed: 'boe' }>>, async (id, route) =>
        mapBoeDaily(parseBoeCsv(await fetchBoeSeries(context.options, route.seriesCode, context.since(id)), route.seriesCode)),
      );
  }
}

async function loadFred(members: Routed<Extract<LiveRoute, { feed: 'fred' }>>, context: LiveLoadContext): Promise<Outcome[]> {
  const apiKey = context.fredApiKey;
  if (apiKey === undefined || apiKey === '')
    return [
      {
        failure: failure(
          'fred',
          members.map(([id]) => id),
          'not-configured',
          'FRED_API_KEY is not set',
        ),
      },
    ];
  return mapBounded(members, FRED_CONCURRENCY, ([id, route]) =>
    guarded('fred', [[id, route]], async () => {
      const body = await fetchFredObservations(context.options, apiKey, route.fredId, isoDay(context.since(id)));
      return [{ id, observations: fredInTheSnapshotsTerms(mapFredObservations(parseFredObservations(body).observations), route) }];
    }),
  ).then((all) => all.flat());
}

/** Inverted FX quotes to units per USD, 4 decimals as the snapshot's packaging rounds them; fiscal years to their last day. */
export function fredInTheSnapshotsTerms(observations: DatedObservation[], route: Extract<LiveRoute, { feed: 'fred' }>): DatedObservation[] {
  return observations
    .filter((o) => !route.invert || o.value !== 0)
    .map((o) => ({
      date: route.fiscalYearEnd ? fiscalYearEnd(o.date) : o.date,
      value: route.invert ? Math.round((1 / o.value) * 10_000) / 10_000 : o.value,
    }));
}

/** The US federal fiscal year named in `date` ends on 30 June until FY1976, on 30 September from FY1977. */
function fiscalYearEnd(date: string): string {
  const year = Number(date.slice(0, 4));
  return `${year}-${year >= 1977 ? '09-30' : '06-30'}`;
}

async function loadPinkSheet(members: Routed<Extract<LiveRoute, { feed: 'worldbank' }>>, options: LiveFeedOptions): Promise<Outcome[]> {
  const sheet = await parsePinkSheetMonthly(await fetchPinkSheetMonthly(options));
  return members.map(([id, route]) => {
    const observations = mapPinkSheetColumn(sheet, route.column);
    return observations === undefined ? { failure: failure('worldbank', [id], 'malformed-body', `no column "${route.column}" in "Monthly Prices"`) } : { id, observations };
  });
}

async function loadGmlFile(file: GmlCo2File, members: Routed, options: LiveFeedOptions): Promise<Outcome[]> {
  const annual = file === 'co2_annmean_mlo.txt';
  const rows = parseGmlTable(await fetchGmlCo2(options, file), annual ? 2 : 4);
  return sameForAll(members, annual ? mapGmlAnnualMeans(rows) : mapGmlMonthlyMeans(rows));
}

function sameForAll(members: Routed, observations: DatedObservation[]): Outcome[] {
  return members.map(([id]) => ({ id, observations }));
}

function eachAlone<Route extends LiveRoute>(feed: LiveFeedName, members: Routed<Route>, load: (id: string, route: Route) => Promise<DatedObservation[]>): Promise<Outcome[]> {
  return Promise.all(members.map(([id, route]) => guarded(feed, [[id, route]], async () => [{ id, observations: await load(id, route) }]))).then((all) => all.flat());
}

/** Runs one request's work; its failure becomes a failure of every series it was to feed. */
async function guarded(feed: LiveFeedName, members: Routed, work: () => Promise<Outcome[]>): Promise<Outcome[]> {
  try {
    return await work();
  } catch (error) {
    const ids = members.map(([id]) => id);
    if (error instanceof SourceUnavailableError) return [{ failure: failure(feed, ids, error.kind, error.detail) }];
    return [{ failure: failure(feed, ids, 'unexpected', error instanceof Error ? error.message : String(error)) }];
  }
}

function failure(feed: LiveFeedName, ids: string[], kind: LiveFailureKind, reason: string): LiveFailure {
  return { feed, ids, kind, reason: reason.slice(0, 200) };
}

async function mapBounded<Item, Result>(items: readonly Item[], concurrency: number, work: (item: Item) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
