import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { cascadeEndpoint } from './cascade.js';
import { instabilityEndpoint } from './instability.js';
import { myceliumEndpoint } from './mycelium.js';

export { cascadeEndpoint, instabilityEndpoint, myceliumEndpoint };

/** The systemic family: cascade, instability and mycelium (spec §4; decisions 0069 and 0070). */
export const systemicEndpoints: readonly AnySignalEndpoint[] = [cascadeEndpoint, instabilityEndpoint, myceliumEndpoint];
