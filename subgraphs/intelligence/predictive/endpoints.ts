import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { fortyEightHourCallEndpoint } from './forty-eight-hour-call.js';
import { ledgerEndpoint, ledgerOf } from './ledger.js';
import type { LedgerStore } from './ledger-store.js';
import { transitionRiskEndpoint } from './transition-risk.js';

/** What the predictive family reads besides the dataset: the ledger of calls in PostgreSQL. */
export interface PredictiveUpstreams {
  ledger: LedgerStore;
}

/** The predictive family (decisions 0075, 0076): the ledger, the 48-hour call it records, transition risk. */
export function predictiveEndpoints(upstreams: PredictiveUpstreams): AnySignalEndpoint[] {
  const ledger = ledgerOf(upstreams.ledger);
  return [ledgerEndpoint(ledger), fortyEightHourCallEndpoint(ledger), transitionRiskEndpoint];
}

export { fortyEightHourCallEndpoint, ledgerEndpoint, transitionRiskEndpoint };
