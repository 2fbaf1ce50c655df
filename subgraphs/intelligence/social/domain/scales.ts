import { clamp } from '../../domain/index.js';

/** A linear (or log-linear) map of a figure onto 0-100: `zeroAt` scores 0, `fullAt` scores 100, clamped beyond. */
export interface Scale {
  zeroAt: number;
  fullAt: number;
  logarithmic?: boolean;
}

export function scaleScore(value: number, scale: Scale): number {
  const at = (x: number) => (scale.logarithmic ? Math.log(Math.max(x, Number.MIN_VALUE)) : x);
  return clamp(((at(value) - at(scale.zeroAt)) / (at(scale.fullAt) - at(scale.zeroAt))) * 100, 0, 100);
}

/**
 * The weighted mean of the components present, the weights renormalised over them (a missing input
 * neither counts as zero nor blocks the score); undefined when none is present.
 */
export function weightedScore<Name extends string>(scores: Partial<Record<Name, number>>, weights: Record<Name, number>): number | undefined {
  let sum = 0;
  let weight = 0;
  for (const [name, w] of Object.entries(weights) as Array<[Name, number]>) {
    const score = scores[name];
    if (score === undefined) continue;
    sum += score * w;
    weight += w;
  }
  return weight === 0 ? undefined : sum / weight;
}
