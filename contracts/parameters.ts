/**
 * What the rail's contracts are deployed with (deploy.ts): the router's fee parameters and the
 * oracle contracts' stability parameters. The fees subgraph's public face gives the values
 * (`contractParameters` of subgraphs/fees/index.ts), so the off-chain model and the chain share
 * one source; contracts/ itself reads no subgraph.
 */
export interface ContractParameters {
  fees: RouterFeeParameters;
  stability: OracleContractParameters;
}

/** SettlementRouter.setFeeParameters: the fee model's rates and volume tiers. */
export interface RouterFeeParameters {
  coreBps: number;
  fxBps: number;
  licenseBps: number;
  volumeTiers: ReadonlyArray<{ minMonthlyVolumeUsd: number; coreDiscountPct: number }>;
}

/** StabilityPID's setpoint (the stable band) and BasketPeg's deviation threshold and verification cycle. */
export interface OracleContractParameters {
  bands: { stable: number };
  peg: { deviationThresholdBps: number; verificationCycleSeconds: number };
}
