import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { commodityEndpoint } from './commodity.js';
import { currencyStressEndpoint } from './currency-stress.js';
import { fxSettlementEndpoint } from './fx-settlement.js';
import { macroStressEndpoint } from './macro-stress.js';
import { sovereignDebtEndpoint } from './sovereign-debt.js';

/** The market family: credit, commodity, sovereign and currency signals (Document 3 §2, §4). */
export const marketEndpoints: readonly AnySignalEndpoint[] = [macroStressEndpoint, commodityEndpoint, sovereignDebtEndpoint, currencyStressEndpoint, fxSettlementEndpoint];
