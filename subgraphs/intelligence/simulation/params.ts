import { z } from 'zod';
import { AppError } from '../../../platform/errors.js';
import type { Network } from './domain/index.js';

/**
 * Request limits (Document 3 §8; those the spec leaves open are decision 0071's). A value outside is
 * 400 INT_ERR_INVALID_PARAMETER naming the field; an origin outside the model's catalogue is 400
 * INT_ERR_UNKNOWN_NODE naming the field and the id. Both are refused before any payment is asked.
 */
export const LIMITS = {
  magnitude: { min: 1, max: 100 },
  eventTypeLength: 200,
  butterflyHorizonHours: { min: 1, max: 720, default: 168 },
  aftershockElapsedHours: { min: 0, max: 4320, default: 24 },
  aftershockHorizonHours: { min: 1, max: 4320, default: 4320 },
  contagionEpochs: { min: 1, max: 12, default: 8 },
  interventionStrength: { min: 0, max: 1, default: 0 },
} as const;

export const magnitudeSchema = z.number().min(LIMITS.magnitude.min).max(LIMITS.magnitude.max).describe('1-100: 100 the maximum plausible shock, 40-60 significant but not extreme');
export const eventTypeSchema = z.string().trim().min(1, 'must name the event').max(LIMITS.eventTypeLength).describe('free-text description of the event');
export const originSchema = z.string().trim().min(1).max(64).describe('a node id of the model catalogue');

/** Any model: its name, the free GET listing its catalogue, and the catalogue. */
export interface NodeCatalogue {
  model: string;
  discoveryPath: string;
  network: () => Network<unknown>;
}

/** The origin of a parsed request, checked against the catalogue once every other field is valid. */
export function knownOrigin<Params extends { origin: string }>(catalogue: NodeCatalogue) {
  return (params: Params): Params => {
    const nodes = catalogue.network().nodes;
    if (nodes.some((node) => node.id === params.origin)) return params;
    throw new AppError('INT_ERR_UNKNOWN_NODE', {
      message: `origin: '${params.origin}' is not a node of the ${catalogue.model} catalogue; GET ${catalogue.discoveryPath} (free) lists its ${nodes.length} node ids`,
    });
  };
}
