import type { CommodityStress, CurrencyStress, MacroStress, SovereignDebt } from '../../market/domain/index.js';
import type { EnergyTransition, ShippingStress, SupplyChain } from '../../physical/domain/index.js';
import type { Climate } from '../../planetary/domain/index.js';

/**
 * The part-1 signal bodies the systemic models read, each absent when its endpoint could not be
 * computed (its inputs are then named missing by the endpoint that called it).
 */
export interface PartOneBodies {
  macroStress?: MacroStress;
  commodity?: CommodityStress;
  currencyStress?: CurrencyStress;
  sovereignDebt?: SovereignDebt;
  supplyChain?: SupplyChain;
  shippingStress?: ShippingStress;
  energyTransition?: EnergyTransition;
  climate?: Climate;
}

export type PartOneName = keyof PartOneBodies;
