import type { AnySignalEndpoint } from '../shared/signal-endpoint.js';
import { genderRiskEndpoint } from './gender-risk.js';

/** The social family: structural gender risk and opportunity (spec §4 GET /gender-risk). */
export const socialEndpoints: readonly AnySignalEndpoint[] = [genderRiskEndpoint];
