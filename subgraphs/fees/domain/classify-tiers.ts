import type { EsgTierRule, VolumeTierRule } from './types.js';

/** The highest volume tier whose threshold the monthly volume reaches. */
export function selectVolumeTier(monthlyVolumeUsd: number, tiers: readonly VolumeTierRule[]): VolumeTierRule {
  let selected = tiers[0];
  for (const tier of tiers) {
    if (monthlyVolumeUsd >= tier.minMonthlyVolumeUsd) selected = tier;
  }
  if (!selected) throw new Error('fee parameters hold no volume tier');
  return selected;
}

/** The first ESG tier, from the top, whose minimum the score reaches. */
export function classifyEsgScore(score: number, tiers: readonly EsgTierRule[]): EsgTierRule {
  const tier = tiers.find((candidate) => score >= candidate.minScore);
  if (!tier) throw new Error(`no ESG tier covers score ${score}`);
  return tier;
}
