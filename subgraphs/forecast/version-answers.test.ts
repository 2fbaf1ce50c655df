import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createLogger } from '../../platform/log.js';
import { fixtureFetch } from '../../platform/sources/testing/fixture-fetch.js';
import { createRuleBasedSynthesiser } from '../../platform/synthesis.js';
import { latestSnapshotObservations, snapshotDataset } from './data/index.js';
import { createLiveSource, LIVE_REFRESH_MS, SNAPSHOT_AS_OF, snapshotSource } from './data-source.js';
import type { ForecastDataSource, LoadedDataset, VersionedLoad } from './dataset-load.js';
import { assessDataset, withLiveInputs } from './domain/index.js';
import { createForecastService } from './service.js';
import { liveFixtureRoutes, testOptions } from './sources/testing.js';
import type { Assess } from './version-answers.js';

const TEST_NOW = '2026-11-22T12:00:00.000Z';
const DAY_MS = 86_400_000;
const POSITIONS = [{ symbol: 'WHEAT' as const, notionalUsd: 1_000_000 }];

/** assessDataset, counting its calls. */
function countingAssess() {
  const counter = { calls: 0 };
  const assess: Assess = (dataset, context) => {
    counter.calls += 1;
    return assessDataset(dataset, context);
  };
  return { assess, counter };
}

/** A source serving whichever load the test sets. */
function settableSource(initial: LoadedDataset) {
  const state = { current: initial };
  const source: ForecastDataSource = { load: async () => state.current };
  return { source, state };
}

function serviceOver(source: ForecastDataSource, clock = new ManualClock(TEST_NOW)) {
  const { assess, counter } = countingAssess();
  const service = createForecastService({ clock, synthesiser: createRuleBasedSynthesiser(clock), source, assess });
  return { service, counter, clock };
}

const A_DAY_AFTER_THE_SNAPSHOT = new Date(SNAPSHOT_AS_OF.getTime() + DAY_MS);
const calmLoad: VersionedLoad = { version: 'calm', dataset: snapshotDataset, dataQuality: 'ESTIMATED', evaluatedAt: A_DAY_AFTER_THE_SNAPSHOT };

/** A refresh with every region 2 °C hotter and drier than the snapshot. */
function hotterLoad(version: string): VersionedLoad {
  const observations = latestSnapshotObservations().map((observation) => ({
    ...observation,
    observedAt: A_DAY_AFTER_THE_SNAPSHOT.toISOString(),
    temperatureAnomalyC: observation.temperatureAnomalyC + 2,
    droughtIndex: Math.min(5, observation.droughtIndex + 1),
  }));
  return { version, dataset: withLiveInputs(snapshotDataset, { observations }), dataQuality: 'LIVE', evaluatedAt: A_DAY_AFTER_THE_SNAPSHOT };
}

describe('the assessment is computed once per dataset version', () => {
  it('serves heat checks, outlooks, regions, portfolio, scenario and TCFD on one version from one assessment', async () => {
    const { service, counter } = serviceOver(snapshotSource);
    const first = await service.heatCheck();
    const second = await service.heatCheck();
    await service.portfolio({ positions: POSITIONS });
    await service.commodityOutlook('COFFEE');
    await service.regions();
    await service.scenario({ scenario: 'la_nina', positions: POSITIONS });
    await service.tcfdReport({ positions: POSITIONS });
    expect(counter.calls).toBe(1);
    expect(second.commodities).toBe(first.commodities);
  });

  it('still measures the data age on each request against the clock', async () => {
    const { service, counter, clock } = serviceOver(snapshotSource);
    const before = await service.heatCheck();
    clock.advance(3 * DAY_MS);
    const after = await service.heatCheck();
    expect(after.dataAgeDays).toBe(before.dataAgeDays + 3);
    expect(after.evaluatedAt).toBe(before.evaluatedAt);
    expect(counter.calls).toBe(1);
  });

  it('assesses a new version afresh, answers from its data, and keeps only the latest version', async () => {
    const { source, state } = settableSource(calmLoad);
    const { service, counter } = serviceOver(source);
    const calm = await service.commodityOutlook('WHEAT');

    state.current = hotterLoad('hot');
    const hot = await service.commodityOutlook('WHEAT');
    expect(counter.calls).toBe(2);
    expect(hot.climateRiskScore).toBeGreaterThan(calm.climateRiskScore);
    expect(hot.signals.temperatureAnomaly).toBeCloseTo(calm.signals.temperatureAnomaly + 2, 2);
    expect(hot.dataQuality).toBe('LIVE');
    await service.heatCheck();
    expect(counter.calls).toBe(2);

    state.current = calmLoad;
    expect(await service.commodityOutlook('WHEAT')).toEqual(calm);
    expect(counter.calls).toBe(3);
  });

  it('computes a load without a version afresh on every request', async () => {
    const { service, counter } = serviceOver({ load: async () => ({ dataset: snapshotDataset, dataQuality: 'PARTIAL' }) });
    await service.heatCheck();
    await service.heatCheck();
    expect(counter.calls).toBe(2);
  });

  it('keeps the calendar per month of the real clock', async () => {
    const { service, clock } = serviceOver(snapshotSource);
    const november = await service.calendar();
    expect(await service.calendar()).toBe(november);
    clock.set('2026-12-01T00:00:00.000Z');
    const december = await service.calendar();
    expect(december[0]?.month).toBe('2026-12');
    expect(november[0]?.month).toBe('2026-11');
  });
});

describe('a live refresh with new data is a new version', () => {
  it('invalidates the answers of the previous refresh', async () => {
    const clock = new ManualClock('2025-07-20T12:00:00.000Z');
    const state = { current: fixtureFetch(liveFixtureRoutes()).fetch };
    const fetch: typeof globalThis.fetch = (input, init) => state.current(input, init);
    const { service, counter } = serviceOver(createLiveSource(testOptions(fetch), createLogger({ logLevel: 'silent' })), clock);

    const burning = await service.commodityOutlook('CORN');
    expect(burning.signals.wildfireActivity).toBeGreaterThan(0);

    // The next refresh finds the fires out.
    state.current = fixtureFetch(liveFixtureRoutes({ eonet: { body: JSON.stringify({ events: [] }) } })).fetch;
    clock.advance(LIVE_REFRESH_MS);
    const quenched = await service.commodityOutlook('CORN');
    expect(quenched.signals.wildfireActivity).toBe(0);
    expect(quenched.evaluatedAt).toBe(clock.now().toISOString());
    expect(counter.calls).toBe(2);
  });
});
