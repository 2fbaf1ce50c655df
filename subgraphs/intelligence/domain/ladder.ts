/**
 * An ordered regime ladder (spec §2 "Intelligence common conventions"): the first rule from the top
 * whose condition holds names the regime. Rules live in data files; the last rule has no bound.
 */
export interface LadderRule<Regime extends string> {
  regime: Regime;
  /** The rule holds when the measured value is at or above this bound; no bound: always holds. */
  atLeast?: number;
}

export function climbLadder<Regime extends string>(ladder: readonly LadderRule<Regime>[], value: number): Regime {
  for (const rule of ladder) {
    if (rule.atLeast === undefined || value >= rule.atLeast) return rule.regime;
  }
  throw new Error('a regime ladder must end with a rule without a bound');
}
