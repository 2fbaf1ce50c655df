import { describe, expect, it } from 'vitest';
import { COMMODITY_SYMBOLS, SCENARIO_IDS } from '../domain/index.js';
import calendar from './calendar.json' with { type: 'json' };
import commodities from './commodities.json' with { type: 'json' };
import { ForecastDataError, latestSnapshotObservations, loadShippedSeries, parseForecastFiles, type RawForecastFiles, snapshotDataset, snapshotObservations, snapshotRegions } from './index.js';
import parameters from './model-parameters.json' with { type: 'json' };
import regions from './regions.json' with { type: 'json' };
import scenarios from './scenarios.json' with { type: 'json' };

interface ShippedFiles {
  commodities: typeof commodities;
  regions: typeof regions;
  parameters: typeof parameters;
  scenarios: typeof scenarios;
  calendar: typeof calendar;
  series: RawForecastFiles['series'];
}

const SHIPPED: ShippedFiles = { commodities, regions, parameters, scenarios, calendar, series: loadShippedSeries() };

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

describe('the prices come from the shipped series through the feed layer (decision 0068)', () => {
  const series = loadShippedSeries();

  it('every series file names its publisher, URL, licence, as-of and the repository commit it was copied from', () => {
    expect(series.size).toBe(11);
    for (const { source, observations } of series.values()) {
      expect(source).toMatchObject({ publisher: expect.any(String), licence: expect.any(String), url: expect.stringMatching(/^https:\/\//) });
      expect(source.copiedFrom.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(observations.at(-1)?.date).toBe(source.asOf);
    }
  });

  it('each commodity reads its own series, and its price provenance says which file, commit and licence', () => {
    for (const symbol of COMMODITY_SYMBOLS) {
      const spec = commodities.commodities.find((c) => c.symbol === symbol)!.priceSeries;
      const { source } = series.get(spec.seriesId)!;
      const provenance = snapshotDataset.commodities[symbol].priceProvenance;
      expect(provenance).toMatchObject({ source: source.publisher, url: source.url });
      expect(provenance.derivation).toContain(`data/series/${source.file}`);
      expect(provenance.derivation).toContain(source.copiedFrom.commit);
      expect(provenance.derivation).toContain(source.licence);
    }
  });

  it('the newest price of every benchmark but LUMBER is from 2026; LUMBER stays on BLS PPI to 2023-11', () => {
    const latest = Object.fromEntries(COMMODITY_SYMBOLS.map((symbol) => [symbol, snapshotDataset.commodities[symbol].prices.at(-1)?.date]));
    expect(latest).toEqual({
      // World Bank Pink Sheet, workbook "Updated on June 02, 2026": last month May 2026
      WHEAT: '2026-05-01',
      CORN: '2026-05-01',
      SOYB: '2026-05-01',
      COFFEE: '2026-05-01',
      COCOA: '2026-05-01',
      COTTON: '2026-05-01',
      SUGAR: '2026-05-01',
      COPPER: '2026-05-01',
      // EIA daily spot prices to 2026-08-18: July is the last complete month
      WTI: '2026-07-01',
      NG: '2026-07-01',
      LUMBER: '2023-11-01',
    });
    expect(snapshotDataset.commodities.LUMBER.priceProvenance.asOf).toBe('2023-11-30');
  });

  it('published monthly prices are the file rows from the first month used; daily ones are averaged per month', () => {
    // data/series/wb_cocoa_monthly.csv: 2022-01 2.47 ... 2026-05 4.16; 4 years × 12 + 5 months = 53 prices
    const cocoa = snapshotDataset.commodities.COCOA.prices;
    expect([cocoa.length, cocoa[0], cocoa.at(-1)]).toEqual([53, { date: '2022-01-01', price: 2.47 }, { date: '2026-05-01', price: 4.16 }]);
    // data/series/henry_hub_daily_eia.csv, June 2026: 21 days summing to 66.04 → 3.144762 → 3.1448
    expect(snapshotDataset.commodities.NG.prices.at(-2)).toEqual({ date: '2026-06-01', price: 3.1448 });
    // the LUMBER values shipped in commodities.json until decision 0068, moved unchanged: 35 months 2021-01..2023-11
    const lumber = snapshotDataset.commodities.LUMBER.prices;
    expect([lumber.length, lumber[0], lumber.at(-1)]).toEqual([35, { date: '2021-01-01', price: 329.9 }, { date: '2023-11-01', price: 240.273 }]);
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
      name: 'a price series not shipped',
      change: (f) => {
        f.commodities.commodities[2]!.priceSeries.seriesId = 'wb_soybean_oil_monthly';
      },
      message: /SOYB: price series wb_soybean_oil_monthly is not in data\/series\/sources\.json/,
    },
    {
      name: 'too short a price history for the drawdown',
      change: (f) => {
        // the Pink Sheet series end at 2026-05: 2024-06..2026-05 is 24 months, one short of 25
        f.commodities.commodities[3]!.priceSeries.from = '2024-06-01';
      },
      message: /COFFEE: 24 monthly prices from 2024-06-01, at least 25 needed/,
    },
    {
      name: 'an unknown price method',
      change: (f) => {
        Object.assign(f.commodities.commodities[0]!.priceSeries, { method: 'weekly' });
      },
      message: /commodities\.json is malformed[\s\S]*priceSeries\.method/,
    },
  ])('$name', ({ change, message }) => {
    expect(() => parseForecastFiles(broken(change))).toThrow(ForecastDataError);
    expect(() => parseForecastFiles(broken(change))).toThrow(message);
  });

  it('accepts the shipped files unchanged', () => {
    expect(parseForecastFiles(broken(() => undefined))).toEqual(snapshotDataset);
  });
});
