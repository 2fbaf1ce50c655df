import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { energyTransitionEndpoint } from './energy-transition.js';
import { shippingStressEndpoint } from './shipping-stress.js';
import { supplyChainEndpoint } from './supply-chain.js';
import { waterRiskEndpoint } from './water-risk.js';

/** The physical family: supply chain, energy transition, water risk and shipping (Document 3 §2, §4). */
export const physicalEndpoints: readonly AnySignalEndpoint[] = [supplyChainEndpoint, energyTransitionEndpoint, waterRiskEndpoint, shippingStressEndpoint];
