import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { macroStressEndpoint } from './macro-stress.js';

/** The market family: credit, commodity, sovereign and currency signals (Document 3 §2, §4). */
export const marketEndpoints: readonly AnySignalEndpoint[] = [macroStressEndpoint];
