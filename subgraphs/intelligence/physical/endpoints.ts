import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';

/** The physical family: supply chain, energy transition, water risk and shipping (Document 3 §2, §4). */
export const physicalEndpoints: readonly AnySignalEndpoint[] = [];
