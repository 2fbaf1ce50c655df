// Which publisher answers live for which shipped series, and how its answer is re-expressed in the
// snapshot's own terms (docs/intelligence/live-feeds.md). A shipped series not listed here stays the
// snapshot's; a listed id the snapshot does not ship is never added (it would have no provenance).

import { ESTR_SERIES, type GmlCo2File, SONIA_SERIES_CODE } from '../../../platform/sources/index.js';

export type LiveRoute =
  /** FRED series observations; `invert`: FRED quotes USD per unit, the snapshot units per USD (1/x, 4 decimals as packaged). */
  | { feed: 'fred'; fredId: string; invert?: true; fiscalYearEnd?: true }
  /** One column of the Pink Sheet's "Monthly Prices", by its published name. */
  | { feed: 'worldbank'; column: string }
  | { feed: 'noaa-gml'; file: GmlCo2File }
  | { feed: 'gistemp' }
  | { feed: 'nyfed' }
  | { feed: 'ecb'; flow: string; key: string }
  | { feed: 'boe'; seriesCode: string };

export type LiveFeedName = LiveRoute['feed'];

const fred = (fredId: string): LiveRoute => ({ feed: 'fred', fredId });
const fredInverted = (fredId: string): LiveRoute => ({ feed: 'fred', fredId, invert: true });
const pinkSheet = (column: string): LiveRoute => ({ feed: 'worldbank', column });

/** FRED H.10 daily rates by the currency the snapshot quotes per USD; the inverted ones are quoted USD per unit. */
const FX_DAILY: Record<string, LiveRoute> = {
  EUR: fredInverted('DEXUSEU'),
  GBP: fredInverted('DEXUSUK'),
  AUD: fredInverted('DEXUSAL'),
  NZD: fredInverted('DEXUSNZ'),
  JPY: fred('DEXJPUS'),
  CHF: fred('DEXSZUS'),
  CAD: fred('DEXCAUS'),
  CNY: fred('DEXCHUS'),
  SEK: fred('DEXSDUS'),
  NOK: fred('DEXNOUS'),
  DKK: fred('DEXDNUS'),
  INR: fred('DEXINUS'),
  BRL: fred('DEXBZUS'),
  MXN: fred('DEXMXUS'),
  KRW: fred('DEXKOUS'),
  ZAR: fred('DEXSFUS'),
  THB: fred('DEXTHUS'),
  MYR: fred('DEXMAUS'),
  SGD: fred('DEXSIUS'),
  TWD: fred('DEXTAUS'),
  HKD: fred('DEXHKUS'),
};

/** The live route of each shipped series id that has one. */
export const LIVE_SERIES: Readonly<Record<string, LiveRoute>> = {
  // Rates, credit, volatility, money (FRED, under the snapshot's own ids).
  ...Object.fromEntries(
    [
      'T10Y2Y',
      'T10Y3M',
      'T10YIE',
      'DGS10',
      'DGS2',
      'DFII10',
      'WALCL',
      'DTWEXBGS',
      'VIXCLS',
      'DRTSCILM',
      'CPIAUCSL',
      'UNRATE',
      'UMCSENT',
      'USEPUINDXD',
      'GFDEGDQ188S',
      'GFDEBTN',
      'NFCI',
      'STLFSI4',
      'RRPONTSYD',
    ].map((id) => [id, fred(id)]),
  ),
  // FRED dates a fiscal year's balance YYYY-01-01; the snapshot dates it the fiscal year's last day.
  FYFSD: { feed: 'fred', fredId: 'FYFSD', fiscalYearEnd: true },
  DCPN3M_cp_3m_nonfin: fred('DCPN3M'),
  DTB3_tbill_3m: fred('DTB3'),
  WRMFNS_money_market_funds: fred('WRMFNS'),
  M2SL_us_m2: fred('M2SL'),
  SOFR_daily: fred('SOFR'),
  // EIA daily spot prices, as FRED carries them (the EIA API needs a key of its own).
  brent_daily_eia: fred('DCOILBRENTEU'),
  wti_daily_eia: fred('DCOILWTICO'),
  henry_hub_daily_eia: fred('DHHNGSP'),
  ...Object.fromEntries(Object.entries(FX_DAILY).map(([currency, route]) => [`fx_daily_${currency}_per_USD`, route])),
  // World Bank Pink Sheet monthly prices.
  wb_crude_brent_monthly: pinkSheet('Crude oil, Brent'),
  wb_crude_wti_monthly: pinkSheet('Crude oil, WTI'),
  wb_natgas_us_henryhub_monthly: pinkSheet('Natural gas, US'),
  wb_natgas_europe_ttf_monthly: pinkSheet('Natural gas, Europe'),
  wb_lng_japan_monthly: pinkSheet('Liquefied natural gas, Japan'),
  wb_coal_australia_monthly: pinkSheet('Coal, Australian'),
  wb_wheat_us_hrw_monthly: pinkSheet('Wheat, US HRW'),
  wb_wheat_us_srw_monthly: pinkSheet('Wheat, US SRW'),
  wb_maize_monthly: pinkSheet('Maize'),
  wb_soybeans_monthly: pinkSheet('Soybeans'),
  wb_rice_thai5_monthly: pinkSheet('Rice, Thai 5%'),
  wb_copper_monthly: pinkSheet('Copper'),
  wb_aluminum_monthly: pinkSheet('Aluminum'),
  wb_iron_ore_monthly: pinkSheet('Iron ore, cfr spot'),
  wb_gold_monthly: pinkSheet('Gold'),
  wb_silver_monthly: pinkSheet('Silver'),
  // Climate.
  co2_mauna_loa_monthly: { feed: 'noaa-gml', file: 'co2_mm_mlo.txt' },
  co2_global_marine_monthly: { feed: 'noaa-gml', file: 'co2_mm_gl.txt' },
  co2_mauna_loa_annual: { feed: 'noaa-gml', file: 'co2_annmean_mlo.txt' },
  gistemp_global_monthly: { feed: 'gistemp' },
  // Supply chains: the whole series as re-estimated this month (never spliced onto an older vintage).
  GSCPI: { feed: 'nyfed' },
  // Overnight rates from their administrators.
  ESTR_daily: { feed: 'ecb', ...ESTR_SERIES },
  SONIA_daily: { feed: 'boe', seriesCode: SONIA_SERIES_CODE },
};
