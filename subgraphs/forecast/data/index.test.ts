import { describe, expect, it } from 'vitest';
import { COMMODITY_SYMBOLS, SCENARIO_IDS } from '../domain/index.js';
import calendar from './calendar.json' with { type: 'json' };
import commodities from './commodities.json' with { type: 'json' };
import { ForecastDataError, latestSnapshotObservations, parseForecastFiles, type RawForecastFiles, snapshotDataset, snapshotObservations, snapshotRegions } from './index.js';
import parameters from './model-parameters.json' with { type: 'json' };
import regions from './regions.json' with { type: 'json' };
import scenarios from './scenarios.json' with { type: 'json' };

interface ShippedFiles {
  commodities: typeof commodities;
  regions: typeof regions;
  parameters: typeof parameters;
  scenarios: typeof scenarios;
  calendar: typeof calendar;
}

const SHIPPED: ShippedFiles = { commodities, regions, parameters, scenarios, calendar };

/** A deep copy of the shipped files with one change applied. */
function broken(change: (files: ShippedFiles) => void): RawForecastFiles {
  const copy = structuredClone(SHIPPED);
  change(copy);
  return copy;
}

describe('the shipped snapshot', () => {
  it('loads all eleven commodities, nine scenarios and twelve calendar months', () => {
    expect(Object.keys(snapshotDataset.commodities)).toEqual([...COMMODITY_SYMBOLS]);
    expect(Object.keys(snapshotDataset.scenarios)).toEqual([...SCENARIO_IDS]);
    expect(snapshotDataset.calendar.map((m) => m.month)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('has at least 24 monthly prices per commodity and a provenance on every file', () => {
    for (const symbol of COMMODITY_SYMBOLS) {
      expect(snapshotDataset.commodities[symbol].prices.length).toBeGreaterThanOrEqual(24);
      expect(snapshotDataset.commodities[symbol].priceProvenance.url).toMatch(/^https:\/\//);
    }
    for (const file of [commodities, regions, parameters, scenarios, calendar]) {
      expect(file.provenance).toMatchObject({ source: expect.any(String), url: expect.any(String), asOf: expect.any(String) });
    }
  });

  it('has two observations per region, 30 days apart, and one current one each', () => {
    expect(snapshotObservations).toHaveLength(2 * snapshotRegions.length);
    const latest = latestSnapshotObservations();
    expect(latest).toHaveLength(snapshotRegions.length);
    expect(new Set(latest.map((o) => o.observedAt))).toEqual(new Set(['2024-10-08T00:00:00Z']));
  });

  it('lists only distinct sources, without per-series derivations', () => {
    const keys = snapshotDataset.sources.map((s) => `${s.source}|${s.url}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(snapshotDataset.sources.every((s) => s.derivation === undefined)).toBe(true);
  });
});

describe('a malformed data file fails loudly', () => {
  it.each<{ name: string; change: (f: ShippedFiles) => void; message: RegExp }>([
    {
      name: 'missing provenance',
      change: (f) => {
        Reflect.deleteProperty(f.commodities, 'provenance');
      },
      message: /commodities\.json is malformed[\s\S]*provenance/,
    },
    {
      name: 'unknown field',
      change: (f) => {
        Object.assign(f.parameters.regionScore.weights, { humidity: 0.1 });
      },
      message: /model-parameters\.json is malformed/,
    },
    {
      name: 'negative drought index',
      change: (f) => {
        f.regions.regions[0]!.observations[0]!.droughtIndex = -1;
      },
      message: /regions\.json is malformed[\s\S]*droughtIndex/,
    },
    {
      name: 'unknown symbol',
      change: (f) => {
        f.calendar.months[0]!.commoditiesAtRisk.push('GOLD');
      },
      message: /calendar\.json is malformed/,
    },
    {
      name: 'weights not summing to 1',
      change: (f) => {
        f.parameters.regionScore.weights.drought = 0.4;
      },
      message: /weights sum to 1\.05/,
    },
    {
      name: 'share inconsistent with production',
      change: (f) => {
        f.commodities.commodities[0]!.production.regions[0]!.share = 0.3;
      },
      message: /WHEAT\/north_china: share 0\.3 does not equal/,
    },
    {
      name: 'missing scenario',
      change: (f) => {
        f.scenarios.scenarios.pop();
      },
      message: /scenarios\.json: global_heatwave is missing/,
    },
    {
      name: 'missing calendar month',
      change: (f) => {
        f.calendar.months.pop();
      },
      message: /calendar\.json: 12 is missing/,
    },
    {
      name: 'unknown production region',
      change: (f) => {
        f.commodities.commodities[1]!.production.regions[0]!.regionId = 'atlantis';
      },
      message: /CORN: unknown production region atlantis/,
    },
    {
      name: 'prices out of order',
      change: (f) => {
        f.commodities.commodities[2]!.prices.reverse();
      },
      message: /SOYB: prices must ascend/,
    },
  ])('$name', ({ change, message }) => {
    expect(() => parseForecastFiles(broken(change))).toThrow(ForecastDataError);
    expect(() => parseForecastFiles(broken(change))).toThrow(message);
  });

  it('accepts the shipped files unchanged', () => {
    expect(parseForecastFiles(broken(() => undefined))).toEqual(snapshotDataset);
  });
});
