import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { biodiversityEndpoint } from './biodiversity.js';
import { climateEndpoint } from './climate.js';
import { climatePulseEndpoint } from './climate-pulse.js';
import { earthSystemsEndpoint } from './earth-systems.js';

/** The planetary family: climate, climate pulse, earth systems and biodiversity (Document 3 §2, §4). */
export const planetaryEndpoints: readonly AnySignalEndpoint[] = [climateEndpoint, climatePulseEndpoint, earthSystemsEndpoint, biodiversityEndpoint];
