import type { SeriesSource } from '../domain/index.js';
import { commodityEndpoint } from '../market/commodity.js';
import { currencyStressEndpoint } from '../market/currency-stress.js';
import { macroStressEndpoint } from '../market/macro-stress.js';
import { sovereignDebtEndpoint } from '../market/sovereign-debt.js';
import { energyTransitionEndpoint } from '../physical/energy-transition.js';
import { shippingStressEndpoint } from '../physical/shipping-stress.js';
import { supplyChainEndpoint } from '../physical/supply-chain.js';
import { climateEndpoint } from '../planetary/climate.js';
import type { AnySignalEndpoint, ComputeContext } from '../shared/signal-endpoint.js';
import { type PartOneBodies, type PartOneName } from './domain/index.js';

const PART_ONE: Record<PartOneName, AnySignalEndpoint> = {
  macroStress: macroStressEndpoint,
  commodity: commodityEndpoint,
  currencyStress: currencyStressEndpoint,
  sovereignDebt: sovereignDebtEndpoint,
  supplyChain: supplyChainEndpoint,
  shippingStress: shippingStressEndpoint,
  energyTransition: energyTransitionEndpoint,
  climate: climateEndpoint,
};

export interface PartOneAnswers {
  bodies: PartOneBodies;
  inputs: SeriesSource[];
  missing: string[];
}

/**
 * The part-1 signals a systemic model reads, computed by their own pure compute functions over the
 * same dataset and clock; their inputs and missing inputs become the model's (each missing one
 * prefixed by the signal that named it). A signal that cannot be computed is named missing.
 */
export async function readPartOne(context: ComputeContext<unknown>, names: readonly PartOneName[]): Promise<PartOneAnswers> {
  const bodies: Record<string, object> = {};
  const inputs = new Map<string, SeriesSource>();
  const missing: string[] = [];
  for (const name of names) {
    const endpoint = PART_ONE[name];
    try {
      const answer = await endpoint.compute({ dataset: context.dataset, now: context.now, params: {} });
      bodies[name] = answer.body as object;
      for (const input of answer.inputs) inputs.set(input.id, input);
      missing.push(...answer.missing.map((item: string) => `${endpoint.id}: ${item}`));
    } catch (error) {
      missing.push(`${endpoint.id}: not computable (${(error as Error).message})`);
    }
  }
  return { bodies: bodies as PartOneBodies, inputs: [...inputs.values()], missing };
}

/** The inputs of two reads as one list, each series once. */
export function mergeInputs(...lists: ReadonlyArray<readonly SeriesSource[]>): SeriesSource[] {
  return [...new Map(lists.flat().map((input) => [input.id, input])).values()];
}
