import { climbLadder, type LadderRule, round, type Series, type SeriesSet, type SeriesSource, type SignalAnswer, weightedMean } from '../../domain/index.js';
import { piecewiseLinear } from './moves.js';
import { type BalanceDefinition, type FiscalTrend, readFiscalTrend, readYieldDynamic, realGrowthPct, type YieldDefinition } from './sovereign-fiscal.js';

type ScorePoints = Array<{ at: number; score: number }>;
type SubScore = 'debtLevel' | 'debtDynamics' | 'fiscalBalance' | 'fiscalTrend';

interface SovereignDefinition {
  weight: number;
  memberOf?: string;
  /** Why the sovereign has no figure: set when no open debt series exists. */
  unavailable?: string;
  debt?: { series: string; basis: string };
  balance?: BalanceDefinition;
  yields?: YieldDefinition;
  realGrowth?: string;
  /** Inputs the method wants for this sovereign that are not openly available. */
  missing?: string[];
}

export interface SovereignDebtParameters {
  fiscalDominanceDebtPct: number;
  sovereigns: Record<string, SovereignDefinition>;
  scoreWeights: Record<SubScore, number>;
  debtLevelScore: ScorePoints;
  debtDynamicsScore: ScorePoints;
  fiscalBalanceScore: ScorePoints;
  fiscalTrend: { usdMillionsLadder: LadderRule<FiscalTrend>[]; pctGdpLadder: LadderRule<FiscalTrend>[]; scores: Record<FiscalTrend, number> };
  yieldDynamic: { months: number; ladder: LadderRule<string>[] };
  signals: LadderRule<string>[];
  globalDebtRegimes: LadderRule<string>[];
  contagion: { strainedBelow: number; ladder: LadderRule<string>[] };
  settlementImpacts: Record<string, string>;
  narratives: Record<string, string>;
}

export interface SovereignEntry {
  /** Latest gross debt, percent of GDP, on the basis `debtBasis` names; null when no open figure exists (never estimated). */
  debtToGdp: number | null;
  debtAsOf: string | null;
  debtBasis: string;
  fiscalDeficitTrend: string;
  yieldDynamic: string;
  /** 0-100, higher = more sustainable: the weighted mean of the sub-scores the sovereign has inputs for; null without a debt figure. */
  sustainabilityScore: number | null;
  signal: string;
  /** The union a member state stands in for (Germany and Italy for the European Union). */
  memberOf: string | null;
}

export interface SovereignDebt {
  systemicSignals: { globalDebtRegime: string; contagionRisk: string; settlementImpact: string };
  sovereigns: Record<string, SovereignEntry>;
  narrative: string;
}

interface Scored {
  entry: SovereignEntry;
  yieldsRising: boolean;
}

function unavailableEntry(definition: SovereignDefinition, reason: string): SovereignEntry {
  return {
    debtToGdp: null,
    debtAsOf: null,
    debtBasis: 'none: not openly available',
    fiscalDeficitTrend: 'UNKNOWN: not openly available',
    yieldDynamic: 'UNKNOWN: not openly available',
    sustainabilityScore: null,
    signal: `DATA_UNAVAILABLE: ${reason}`,
    memberOf: definition.memberOf ?? null,
  };
}

/** r - g: the real 10-year yield minus real GDP growth over four quarters, percentage points. */
function readRMinusG(set: SeriesSet, definition: SovereignDefinition, used: Series[], missing: string[]): number | undefined {
  if (!definition.yields || !definition.realGrowth) return undefined;
  const real = set.get(definition.yields.real10y);
  const growth = set.get(definition.realGrowth);
  const g = growth ? realGrowthPct(growth) : undefined;
  if (!real || real.observations.length === 0 || !growth || g === undefined) {
    missing.push(...[real ? [] : [definition.yields.real10y], growth ? [] : [definition.realGrowth]].flat());
    return undefined;
  }
  used.push(real, growth);
  return real.observations.at(-1)!.value - g;
}

function scoreSovereign(name: string, definition: SovereignDefinition, set: SeriesSet, parameters: SovereignDebtParameters, used: Series[], missing: string[]): Scored {
  missing.push(...(definition.missing ?? []));
  const debtSeries = definition.debt ? set.get(definition.debt.series) : undefined;
  const debt = debtSeries?.observations.at(-1);
  if (!definition.debt || !debtSeries || !debt) {
    if (definition.debt) missing.push(`${name}: ${definition.debt.series}`);
    return { entry: unavailableEntry(definition, definition.unavailable ?? 'no open debt-to-GDP series in the snapshot'), yieldsRising: false };
  }
  used.push(debtSeries);
  const parts: Array<{ name: SubScore; value: number }> = [{ name: 'debtLevel', value: piecewiseLinear(parameters.debtLevelScore, debt.value) }];
  const balanceSeries = definition.balance ? set.get(definition.balance.series) : undefined;
  const fiscal = balanceSeries && definition.balance ? readFiscalTrend(balanceSeries, definition.balance, parameters.fiscalTrend) : undefined;
  if (fiscal && balanceSeries) {
    used.push(balanceSeries);
    parts.push({ name: 'fiscalTrend', value: parameters.fiscalTrend.scores[fiscal.trend] });
    if (fiscal.balancePctGdp !== undefined) parts.push({ name: 'fiscalBalance', value: piecewiseLinear(parameters.fiscalBalanceScore, fiscal.balancePctGdp) });
  } else if (definition.balance) missing.push(`${name}: ${definition.balance.series}`);
  const yields = definition.yields ? readYieldDynamic(set, definition.yields, parameters.yieldDynamic) : undefined;
  if (yields) {
    used.push(...yields.used);
    missing.push(...yields.missing.map((id) => `${name}: ${id}`));
  } else if (definition.yields) missing.push(`${name}: ${definition.yields.nominal10y}`);
  const rMinusG = readRMinusG(set, definition, used, missing);
  if (rMinusG !== undefined) parts.push({ name: 'debtDynamics', value: piecewiseLinear(parameters.debtDynamicsScore, rMinusG) });
  const score = round(weightedMean(parts.map((part) => ({ value: part.value, weight: parameters.scoreWeights[part.name] })))!, 1);
  const level = climbLadder(parameters.signals, score);
  const line = debt.value >= parameters.fiscalDominanceDebtPct ? 'above' : 'below';
  const dynamics = rMinusG === undefined ? '' : `; r-g ${rMinusG >= 0 ? '+' : ''}${rMinusG.toFixed(2)}pp (real 10-year yield minus real growth)`;
  const entry: SovereignEntry = {
    debtToGdp: round(debt.value, 1),
    debtAsOf: debt.date,
    debtBasis: definition.debt.basis,
    fiscalDeficitTrend: fiscal?.text ?? 'UNKNOWN: no open fiscal balance series in the snapshot',
    yieldDynamic: yields?.text ?? 'UNKNOWN: no open 10-year yield series in the snapshot',
    sustainabilityScore: score,
    signal: `${level}: debt ${round(debt.value, 1)}% of GDP (${debt.date.slice(0, 4)}) ${line} the ${parameters.fiscalDominanceDebtPct}% fiscal-dominance line${dynamics}; scored on ${parts.map((part) => part.name).join(', ')}`,
    memberOf: definition.memberOf ?? null,
  };
  return { entry, yieldsRising: yields?.rising ?? false };
}

function systemicSignals(scored: Record<string, Scored>, parameters: SovereignDebtParameters): { regime: string; mean: number; contagionRisk: string } {
  const withScore = Object.entries(scored).filter(([, one]) => one.entry.sustainabilityScore !== null);
  const mean = weightedMean(withScore.map(([name, one]) => ({ value: one.entry.sustainabilityScore!, weight: parameters.sovereigns[name]!.weight })));
  if (mean === undefined) throw new Error('sovereign-debt: no sovereign could be scored');
  const regime = climbLadder(parameters.globalDebtRegimes, round(mean, 1));
  const strained = withScore.filter(([, one]) => one.entry.sustainabilityScore! < parameters.contagion.strainedBelow).map(([name]) => name);
  const usRising = scored['United States']?.yieldsRising ?? false;
  const level = climbLadder(parameters.contagion.ladder, strained.length + (usRising ? 1 : 0));
  const contagionRisk = `${level}: ${strained.length} of ${withScore.length} scored sovereigns below ${parameters.contagion.strainedBelow}${strained.length > 0 ? ` (${strained.join(', ')})` : ''}; US 10-year yield ${usRising ? 'rising' : 'not rising'}`;
  return { regime, mean: round(mean, 1), contagionRisk };
}

/**
 * Sovereign debt (spec §2 shape 11): the United States, the European Union, the United Kingdom
 * and Japan, with Germany and Italy as the member states the EU entry points to. Each scored on
 * the inputs openly available for it; an input that is not is named in `missing`, a debt figure
 * that is not leaves the sovereign unscored rather than estimated.
 */
export function computeSovereignDebt(set: SeriesSet, parameters: SovereignDebtParameters): SignalAnswer<SovereignDebt> {
  const used: Series[] = [];
  const missing: string[] = [];
  const scored = Object.fromEntries(Object.entries(parameters.sovereigns).map(([name, definition]) => [name, scoreSovereign(name, definition, set, parameters, used, missing)]));
  const systemic = systemicSignals(scored, parameters);
  const sovereigns = Object.fromEntries(Object.entries(scored).map(([name, one]) => [name, one.entry]));
  const levels = Object.entries(sovereigns).map(([name, entry]) => `${name} ${entry.signal.split(':')[0]}`);
  const narrative = `${parameters.narratives[systemic.regime] ?? ''} Weighted sustainability score ${systemic.mean} of 100: ${levels.join(', ')}.`;
  const body: SovereignDebt = {
    systemicSignals: { globalDebtRegime: systemic.regime, contagionRisk: systemic.contagionRisk, settlementImpact: parameters.settlementImpacts[systemic.regime] ?? '' },
    sovereigns,
    narrative,
  };
  return { body, inputs: [...new Set<SeriesSource>(used)], missing: [...new Set(missing)] };
}
