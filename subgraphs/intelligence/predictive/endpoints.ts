import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { fortyEightHourCallEndpoint } from './forty-eight-hour-call.js';
import { ledgerEndpoint, ledgerOf } from './ledger.js';
import type { LedgerStore } from './ledger-store.js';
import { transitionRiskEndpoint } from './transition-risk.js';

/** What the predictive family reads besides the dataset: the ledger of calls in PostgreSQL. */
export interface PredictiveUpstreams {
  ledger: LedgerStore;
}

/** The predictive endpoints that read and write the ledger (decision 0075): the ledger and the 48-hour call it records. */
export function recordingEndpoints(upstreams: PredictiveUpstreams): AnySignalEndpoint[] {
  const ledger = ledgerOf(upstreams.ledger);
  return [ledgerEndpoint(ledger), fortyEightHourCallEndpoint(ledger)];
}

export { causalGraphEndpoint } from './causal-graph.js';
export { fortyEightHourCallEndpoint, ledgerEndpoint, transitionRiskEndpoint };
