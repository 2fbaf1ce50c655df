import fortyEightHourJson from '../data/parameters/48h-call.json' with { type: 'json' };
import ledgerJson from '../data/parameters/ledger.json' with { type: 'json' };
import { commodityEndpoint } from '../market/commodity.js';
import { currencyStressEndpoint } from '../market/currency-stress.js';
import { macroStressEndpoint } from '../market/macro-stress.js';
import { cascadeEndpoint, myceliumEndpoint } from '../systemic/endpoints.js';
import type { LedgerModel, ResolutionTiming } from './domain/index.js';
import { fortyEightHourLedgerModel, type FortyEightHourParameters } from './domain/index.js';
import { regimeLedgerModel } from './domain/index.js';

export interface LedgerParameters extends ResolutionTiming {
  reliabilityBuckets: number;
  limit: { default: number; maximum: number };
  regimeCalls: { horizonDays: number };
}

export const ledgerParameters = ledgerJson as LedgerParameters;
export const fortyEightHourParameters = fortyEightHourJson as FortyEightHourParameters;

/** The 48-hour call (GET /intelligence/48h-call) as the ledger keeps it. */
export const fortyEightHourModel = fortyEightHourLedgerModel(fortyEightHourParameters);

const regime = ledgerParameters.regimeCalls;

/**
 * Every model whose calls the ledger records and scores: one entry each (decision 0075). A regime
 * model needs its endpoint, where its regime and index sit in the body, and the daily series that
 * dates its data.
 */
export const LEDGER_MODELS: readonly LedgerModel[] = [
  regimeLedgerModel(
    {
      id: 'macro-stress-regime',
      title: 'Credit regime of macro-stress, one week ahead',
      subject: 'regime',
      endpoint: macroStressEndpoint,
      regimeOf: (body) => body.regime,
      indexOf: (body) => ({ label: 'macro-stress stressIndex', value: body.stressIndex }),
      datingSeries: 'VIXCLS',
    },
    regime,
  ),
  regimeLedgerModel(
    {
      id: 'commodity-regime',
      title: 'Commodity stress regime, one week ahead',
      subject: 'regime',
      endpoint: commodityEndpoint,
      regimeOf: (body) => body.regime,
      indexOf: (body) => ({ label: 'commodity stressIndex', value: body.stressIndex }),
      datingSeries: 'brent_daily_eia',
    },
    regime,
  ),
  regimeLedgerModel(
    {
      id: 'currency-dollar-regime',
      title: 'Dollar regime of currency-stress, one week ahead',
      subject: 'dollarRegime',
      endpoint: currencyStressEndpoint,
      regimeOf: (body) => body.dollarRegime,
      indexOf: (body) => ({ label: 'currency-stress stressIndex', value: body.stressIndex }),
      datingSeries: 'DTWEXBGS',
    },
    regime,
  ),
  regimeLedgerModel(
    {
      id: 'cascade-status',
      title: 'Overall status of the cascade nervous system, one week ahead',
      subject: 'overallStatus',
      endpoint: cascadeEndpoint,
      regimeOf: (body) => body.nervousSystem.overallStatus,
      indexOf: (body) => ({ label: 'cascade systemicRiskScore', value: body.nervousSystem.systemicRiskScore }),
      datingSeries: 'VIXCLS',
    },
    regime,
  ),
  regimeLedgerModel(
    {
      id: 'mycelium-regime',
      title: 'Regime of the mycelium funding network, one week ahead',
      subject: 'regime',
      endpoint: myceliumEndpoint,
      regimeOf: (body) => body.regime,
      indexOf: (body) => ({ label: 'mycelium networkHealth', value: body.networkHealth }),
      datingSeries: 'SOFR_daily',
    },
    regime,
  ),
  fortyEightHourModel,
];
