import type { LayerReading } from './layers.js';
import { layerScore } from './layers.js';

export type PropagationStatus = 'ACTIVE' | 'FORMING' | 'EXPECTED';

/** One layer of a cascade's path as the parameters give it. */
export interface PathStep {
  layer: number;
  typicalLag: string;
  /** The typical lag in days, the middle of `typicalLag`: orders the FORMING rule. */
  lagDays: number;
  leadSignal: string;
}

export interface PropagationStep {
  layer: number;
  status: PropagationStatus;
  pricedIn: boolean;
  typicalLag: string;
  leadSignal?: string;
  /** The layer's own score (0-100) when it was measured. */
  layerScore: number | null;
}

export interface PropagationParameters {
  /** A layer whose own score reaches this has moved: the shock has reached it and is priced in. */
  layerMovedAt: number;
  /** Downstream layers of an ACTIVE cascade within this typical lag are FORMING, the rest EXPECTED. */
  formingWithinDays: number;
}

/**
 * The cascade's path through the layers (decision 0069): the entry layer carries the cascade's
 * own status. Downstream of an ACTIVE cascade, a layer is ACTIVE once its own signal has moved
 * (score at layerMovedAt or above), else FORMING when its typical lag is within formingWithinDays,
 * else EXPECTED. Downstream of a FORMING cascade every layer is EXPECTED: stress a layer shows
 * already is not this cascade's doing while the cascade has not started. pricedIn is whether the
 * layer's own signal has moved.
 */
function downstreamStatus(cascadeStatus: 'ACTIVE' | 'FORMING', moved: boolean, lagDays: number, parameters: PropagationParameters): PropagationStatus {
  if (cascadeStatus === 'FORMING') return 'EXPECTED';
  if (moved) return 'ACTIVE';
  return lagDays <= parameters.formingWithinDays ? 'FORMING' : 'EXPECTED';
}

export function propagate(path: readonly PathStep[], entryLayer: number, cascadeStatus: 'ACTIVE' | 'FORMING', layers: readonly LayerReading[], parameters: PropagationParameters): PropagationStep[] {
  return path.map((step) => {
    const score = layerScore(layers, step.layer);
    const moved = score !== null && score >= parameters.layerMovedAt;
    const status: PropagationStatus = step.layer === entryLayer ? cascadeStatus : downstreamStatus(cascadeStatus, moved, step.lagDays, parameters);
    return { layer: step.layer, status, pricedIn: moved, typicalLag: step.typicalLag, leadSignal: step.leadSignal, layerScore: score };
  });
}
