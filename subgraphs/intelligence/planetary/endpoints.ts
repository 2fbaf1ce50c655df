import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';

/** The planetary family: climate, climate pulse, earth systems and biodiversity (Document 3 §2, §4). */
export const planetaryEndpoints: readonly AnySignalEndpoint[] = [];
