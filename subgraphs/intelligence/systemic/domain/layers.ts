import { climbLadder, type LadderRule, round } from '../../domain/index.js';
import type { Readings } from './conditions.js';

export type LayerStatus = 'CRITICAL' | 'STRESSED' | 'ELEVATED' | 'NORMAL' | 'NO_DATA';

export interface LayerSpec {
  layer: number;
  name: string;
  /** Key of the reading that scores the layer 0-100. */
  reading: string;
  basis: string;
  /** Inputs the layer's key signals name that are not openly published. */
  missing: string[];
}

export interface LayerReading {
  layer: number;
  name: string;
  status: LayerStatus;
  /** 0-100; null when the layer's input is missing. */
  score: number | null;
  basis: string;
}

export interface LayerParameters {
  layers: LayerSpec[];
  layerStatus: LadderRule<Exclude<LayerStatus, 'NO_DATA'>>[];
}

/** The seven layers of the nervous system, each scored from its reading and placed on the layer ladder. */
export function readLayers(readings: Readings, parameters: LayerParameters): LayerReading[] {
  return parameters.layers.map((spec) => {
    const value = readings[spec.reading];
    if (value === undefined || !Number.isFinite(value)) return { layer: spec.layer, name: spec.name, status: 'NO_DATA', score: null, basis: spec.basis };
    const score = round(value, 1);
    return { layer: spec.layer, name: spec.name, status: climbLadder(parameters.layerStatus, score), score, basis: spec.basis };
  });
}

/** The layer's score, or null when the layer is unknown or has no data. */
export function layerScore(layers: readonly LayerReading[], layer: number): number | null {
  return layers.find((reading) => reading.layer === layer)?.score ?? null;
}
