/**
 * USD corridor states for the corridors widget (docs/stability-corridors.md; decision 0034): from the
 * shipped H.10 series of each currency, its realised volatility and move over a window, against
 * bounds in a parameters file, capped by the stability oracle's band. Pure.
 */

export type CorridorState = 'OPTIMAL' | 'CAUTION' | 'ADVERSE';

export interface CorridorParameters {
  windowObservations: number;
  tradingDaysPerYear: number;
  volatilityPct: { optimalBelow: number; adverseFrom: number };
  movePct: { optimalBelow: number; adverseFrom: number };
}

export interface CorridorInput {
  currency: string;
  /** Units of the currency per 1 USD, ascending. */
  observations: ReadonlyArray<{ date: string; rate: number }>;
}

export interface Corridor {
  corridor: string;
  currency: string;
  state: CorridorState;
  volatilityPct: number | null;
  movePct: number | null;
  asOf: string | null;
  reason: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

function measures(observations: CorridorInput['observations'], parameters: CorridorParameters) {
  const window = observations.slice(-(parameters.windowObservations + 1));
  if (window.length < parameters.windowObservations + 1) return null;
  const changes = window.slice(1).map((row, index) => Math.log(row.rate / window[index]!.rate));
  const mean = changes.reduce((sum, change) => sum + change, 0) / changes.length;
  const variance = changes.reduce((sum, change) => sum + (change - mean) ** 2, 0) / (changes.length - 1);
  return {
    volatilityPct: round2(Math.sqrt(variance * parameters.tradingDaysPerYear) * 100),
    movePct: round2(((window.at(-1)!.rate - window[0]!.rate) / window[0]!.rate) * 100),
    asOf: window.at(-1)!.date,
  };
}

function stateOf(volatility: number, move: number, parameters: CorridorParameters): CorridorState {
  const absMove = Math.abs(move);
  if (volatility >= parameters.volatilityPct.adverseFrom || absMove >= parameters.movePct.adverseFrom) return 'ADVERSE';
  if (volatility < parameters.volatilityPct.optimalBelow && absMove < parameters.movePct.optimalBelow) return 'OPTIMAL';
  return 'CAUTION';
}

export function corridorStates(inputs: readonly CorridorInput[], band: 'stable' | 'caution' | 'unstable' | null, parameters: CorridorParameters): Corridor[] {
  return inputs.map(({ currency, observations }) => {
    const corridor = `USD/${currency}`;
    const measured = measures(observations, parameters);
    if (!measured) return { corridor, currency, state: 'CAUTION', volatilityPct: null, movePct: null, asOf: observations.at(-1)?.date ?? null, reason: 'Too few observations to measure: caution' };
    let state = stateOf(measured.volatilityPct, measured.movePct, parameters);
    let reason = `${parameters.windowObservations}-day realised volatility ${measured.volatilityPct}%, move ${measured.movePct}%`;
    if (band === 'unstable' && state === 'OPTIMAL') [state, reason] = ['CAUTION', `${reason}; the stability oracle reads unstable`];
    if (band === 'caution' && state === 'OPTIMAL') [state, reason] = ['CAUTION', `${reason}; the stability oracle reads caution`];
    return { corridor, currency, state, ...measured, reason };
  });
}
