import { climbLadder, type LadderRule, latest, readInputs, round, type Series, type SeriesSet } from '../../domain/index.js';
import { weightedMean } from '../../domain/index.js';
import type { CurrencyStress } from '../../market/domain/index.js';
import { lookbackStart, piecewiseLinear } from '../../market/domain/index.js';
import type { LayerReading } from './layers.js';
import { type PathStep, propagate, type PropagationParameters, type PropagationStep } from './propagation.js';
import { changePctAt, changePctOverDays, lastPercentile, rollingMeans, runStart } from './series-math.js';

export type Intensity = 'ACUTE' | 'ELEVATED' | 'MODERATE' | 'LOW' | 'NONE';
export type DeficitTrend = 'DETERIORATING' | 'STABLE' | 'IMPROVING';
type Point = { at: number; score: number };
type SeriesRole = 'policyUncertainty' | 'tradePolicyUncertainty' | 'debtToGdp' | 'federalBalance' | 'breakeven' | 'cpi' | 'cny' | 'eur' | 'brent' | 'europeGas';

export interface InstabilityParameters {
  lookbackYears: number;
  series: Record<SeriesRole, string>;
  usInstability: {
    weights: Record<'policyUncertainty' | 'tradePolicyVolatility' | 'dollarWeaponization' | 'uncertaintyTrend', number>;
    policyUncertaintyMeanDays: number;
    trendBaseDays: number;
    uncertaintyTrend: Point[];
    uncertaintyLevel: LadderRule<string>[];
    listedAt: number;
  };
  fiscalDominance: {
    weights: Record<'debtToGdp' | 'deficitTrend' | 'inflationExpectations', number>;
    thresholdPct: number;
    debtToGdpScore: Point[];
    deficitTrendBandPct: number;
    deficitTrendScore: Record<DeficitTrend, number>;
    inflationExpectationsScore: Point[];
  };
  intensity: LadderRule<Exclude<Intensity, 'NONE'>>[];
  actors: {
    unitedStates: { actor: string; mode: string; historicalComparisons: Record<Exclude<Intensity, 'NONE'>, string[]> };
    china: {
      actor: string;
      mode: string;
      levelAbove: number;
      depreciationAbovePct: number;
      changeDays: number;
      acuteLevelAbove: number;
      acuteDepreciationAbovePct: number;
      historicalComparisons: string[];
    };
    russia: { actor: string; mode: string; since: string; historicalComparisons: string[] };
    europeanUnion: { actor: string; mode: string; spreadAboveBp: number; eurDeclineAbovePct: number; acuteEurDeclineAbovePct: number; changeDays: number; historicalComparisons: string[] };
  };
  absorptionOutlook: Record<Exclude<Intensity, 'NONE'>, string>;
  scenarios: {
    US_POLICY_INSTABILITY: ScenarioSpec & { uncertaintyLevels: string[]; minScore: number };
    US_FISCAL_DOMINANCE_RISK: ScenarioSpec & { debtAbovePct: number; inflationAbovePct: number; minScore: number };
  };
}

interface ScenarioSpec {
  label: string;
  entryLayer: number;
  propagation: PathStep[];
  historicalAnalog: string;
}

export interface Origin {
  actor: string;
  mode: string;
  intensity: Exclude<Intensity, 'NONE'>;
  ongoingSince: string;
  keySignals: string[];
  absorptionOutlook: string;
  historicalComparisons: string[];
}

export interface Scenario {
  type: string;
  label: string;
  confidence: number;
  entryLayer: number;
  propagation: PropagationStep[];
  unpricedEffects: string[];
  historicalAnalog: string;
  timelineNarrative: string;
}

export interface UsComponents {
  policyUncertainty: number | null;
  tradePolicyVolatility: number | null;
  dollarWeaponization: number | null;
  uncertaintyTrend: number | null;
  uncertaintyLevel: string | null;
}

export interface FiscalComponents {
  debtToGdpPct: number | null;
  debtToGdpScore: number | null;
  deficitTrend: DeficitTrend | null;
  deficitTrendScore: number | null;
  inflationExpectationsPct: number | null;
  inflationExpectationsScore: number | null;
  cpiInflationPct: number | null;
}

export interface Instability {
  usInstabilityScore: number;
  fiscalDominanceScore: number;
  overallIntensity: Intensity;
  components: { usInstability: UsComponents; fiscalDominance: FiscalComponents };
  origins: Origin[];
  scenarios: Scenario[];
  dataAsOf: { epuDate: string | null; tradeDate: string | null; deficitDate: string | null };
  systemicNarrative: string;
  watchList: string[];
}

/** What the instability model reads besides the series: the broad dollar's currency-stress score and the cascade's layers. */
export interface InstabilityContext {
  currencyStress?: CurrencyStress;
  layers: readonly LayerReading[];
  propagation: PropagationParameters;
}

type Found = Partial<Record<SeriesRole, Series>>;

/** Spec §3: ACUTE when either score is 70 or more, ELEVATED 45, MODERATE 20, LOW below; NONE when neither could be computed. */
export function overallIntensity(us: number | null, fiscal: number | null, ladder: InstabilityParameters['intensity']): Intensity {
  const scores = [us, fiscal].filter((score): score is number => score !== null);
  return scores.length === 0 ? 'NONE' : climbLadder(ladder, Math.max(...scores));
}

/** The federal balance of the latest fiscal year against the year before: a balance falling by more than the band deteriorates. */
export function deficitTrend(latestBalance: number, previousBalance: number, bandPct: number): DeficitTrend {
  const changePct = ((latestBalance - previousBalance) / Math.abs(previousBalance)) * 100;
  if (changePct < -bandPct) return 'DETERIORATING';
  return changePct > bandPct ? 'IMPROVING' : 'STABLE';
}

function policyUncertainty(series: Series | undefined, parameters: InstabilityParameters) {
  if (!series) return { percentile: null, trend: null, means: undefined };
  const { policyUncertaintyMeanDays, trendBaseDays, uncertaintyTrend } = parameters.usInstability;
  const means = rollingMeans(series.observations, policyUncertaintyMeanDays);
  const base = rollingMeans(series.observations, trendBaseDays).at(-1)!;
  const ratio = base === 0 ? 1 : means.at(-1)! / base;
  return { percentile: lastPercentile(series.observations, means, parameters.lookbackYears), trend: piecewiseLinear(uncertaintyTrend, ratio), means };
}

function usComponents(found: Found, context: InstabilityContext, parameters: InstabilityParameters): UsComponents {
  const epu = policyUncertainty(found.policyUncertainty, parameters);
  const trade = found.tradePolicyUncertainty;
  const usd = context.currencyStress?.g10.USD?.score;
  return {
    policyUncertainty: epu.percentile === null ? null : round(epu.percentile, 1),
    tradePolicyVolatility: trade
      ? round(
          lastPercentile(
            trade.observations,
            trade.observations.map((observation) => observation.value),
            parameters.lookbackYears,
          ),
          1,
        )
      : null,
    dollarWeaponization: usd ?? null,
    uncertaintyTrend: epu.trend === null ? null : round(epu.trend, 1),
    uncertaintyLevel: epu.percentile === null ? null : climbLadder(parameters.usInstability.uncertaintyLevel, epu.percentile),
  };
}

function cpiInflation(cpi: Series | undefined): number | null {
  if (!cpi) return null;
  const change = changePctOverDays(cpi, 365);
  return change === undefined ? null : round(change, 2);
}

function fiscalComponents(found: Found, parameters: InstabilityParameters): FiscalComponents {
  const settings = parameters.fiscalDominance;
  const debt = found.debtToGdp && latest(found.debtToGdp).value;
  const balances = found.federalBalance?.observations ?? [];
  const trend = balances.length >= 2 ? deficitTrend(balances.at(-1)!.value, balances.at(-2)!.value, settings.deficitTrendBandPct) : null;
  const breakeven = found.breakeven && latest(found.breakeven).value;
  return {
    debtToGdpPct: debt === undefined ? null : round(debt, 1),
    debtToGdpScore: debt === undefined ? null : round(piecewiseLinear(settings.debtToGdpScore, debt), 1),
    deficitTrend: trend,
    deficitTrendScore: trend === null ? null : settings.deficitTrendScore[trend],
    inflationExpectationsPct: breakeven === undefined ? null : breakeven,
    inflationExpectationsScore: breakeven === undefined ? null : round(piecewiseLinear(settings.inflationExpectationsScore, breakeven), 1),
    cpiInflationPct: cpiInflation(found.cpi),
  };
}

function weighted(entries: ReadonlyArray<{ value: number | null; weight: number }>): number | null {
  const known = entries.flatMap((entry) => (entry.value === null ? [] : [{ value: entry.value, weight: entry.weight }]));
  const result = weightedMean(known);
  return result === undefined ? null : round(result, 1);
}

export function usInstabilityScore(components: UsComponents, weights: InstabilityParameters['usInstability']['weights']): number | null {
  return weighted([
    { value: components.policyUncertainty, weight: weights.policyUncertainty },
    { value: components.tradePolicyVolatility, weight: weights.tradePolicyVolatility },
    { value: components.dollarWeaponization, weight: weights.dollarWeaponization },
    { value: components.uncertaintyTrend, weight: weights.uncertaintyTrend },
  ]);
}

export function fiscalDominanceScore(components: FiscalComponents, weights: InstabilityParameters['fiscalDominance']['weights']): number | null {
  return weighted([
    { value: components.debtToGdpScore, weight: weights.debtToGdp },
    { value: components.deficitTrendScore, weight: weights.deficitTrend },
    { value: components.inflationExpectationsScore, weight: weights.inflationExpectations },
  ]);
}

function usOrigin(found: Found, score: number | null, components: UsComponents, parameters: InstabilityParameters): Origin | undefined {
  if (score === null || score < parameters.usInstability.listedAt) return undefined;
  const settings = parameters.actors.unitedStates;
  const intensity = climbLadder(parameters.intensity, score);
  const epu = found.policyUncertainty!;
  const means = rollingMeans(epu.observations, parameters.usInstability.policyUncertaintyMeanDays);
  const from = lookbackStart(epu.asOf, parameters.lookbackYears);
  const window = means.filter((_, index) => epu.observations[index]!.date >= from).sort((a, b) => a - b);
  const median = window[Math.floor(window.length / 2)]!;
  return {
    actor: settings.actor,
    mode: settings.mode,
    intensity,
    ongoingSince: runStart(epu.observations, (index) => means[index]! >= median) ?? epu.asOf,
    keySignals: [
      `policy uncertainty ${components.uncertaintyLevel}: 30-day mean at percentile ${components.policyUncertainty} of 10 years (${epu.asOf})`,
      `trade policy uncertainty at percentile ${components.tradePolicyVolatility ?? 'unknown'}`,
      `broad dollar stress score ${components.dollarWeaponization ?? 'unknown'}`,
      `uncertainty trend score ${components.uncertaintyTrend}`,
    ],
    absorptionOutlook: `${intensity}: ${parameters.absorptionOutlook[intensity]} (US instability score ${score})`,
    historicalComparisons: settings.historicalComparisons[intensity],
  };
}

function chinaOrigin(found: Found, parameters: InstabilityParameters): Origin | undefined {
  const settings = parameters.actors.china;
  const cny = found.cny;
  if (!cny) return undefined;
  const observations = cny.observations;
  const holds = (index: number) => observations[index]!.value > settings.levelAbove || (changePctAt(observations, index, settings.changeDays) ?? 0) > settings.depreciationAbovePct;
  const since = runStart(observations, holds);
  if (since === undefined) return undefined;
  const rate = latest(cny).value;
  const depreciation = changePctOverDays(cny, settings.changeDays) ?? 0;
  const intensity = rate > settings.acuteLevelAbove || depreciation > settings.acuteDepreciationAbovePct ? 'ACUTE' : 'ELEVATED';
  return {
    actor: settings.actor,
    mode: settings.mode,
    intensity,
    ongoingSince: since,
    keySignals: [`CNY ${rate} per USD (trigger > ${settings.levelAbove})`, `CNY ${round(depreciation, 2)}% weaker over ${settings.changeDays} days (trigger > ${settings.depreciationAbovePct}%)`],
    absorptionOutlook: `${intensity}: ${parameters.absorptionOutlook[intensity]}`,
    historicalComparisons: settings.historicalComparisons,
  };
}

function energyPercentile(series: Series | undefined, years: number): number | undefined {
  if (!series) return undefined;
  return lastPercentile(
    series.observations,
    series.observations.map((observation) => observation.value),
    years,
  );
}

function russiaOrigin(found: Found, parameters: InstabilityParameters): Origin {
  const settings = parameters.actors.russia;
  const brent = energyPercentile(found.brent, parameters.lookbackYears);
  const gas = energyPercentile(found.europeGas, parameters.lookbackYears);
  const known = [brent, gas].filter((value): value is number => value !== undefined);
  const score = known.length === 0 ? 0 : round(known.reduce((sum, value) => sum + value, 0) / known.length, 1);
  const intensity = climbLadder(parameters.intensity, score);
  return {
    actor: settings.actor,
    mode: settings.mode,
    intensity,
    ongoingSince: settings.since,
    keySignals: [
      `Brent ${found.brent ? latest(found.brent).value : 'unknown'} USD/bbl at percentile ${brent === undefined ? 'unknown' : round(brent, 1)} of 10 years`,
      `European gas (TTF) ${found.europeGas ? latest(found.europeGas).value : 'unknown'} USD/MMBtu at percentile ${gas === undefined ? 'unknown' : round(gas, 1)} of 10 years`,
      `energy intensity score ${score}`,
    ],
    absorptionOutlook: `${intensity}: ${parameters.absorptionOutlook[intensity]}`,
    historicalComparisons: settings.historicalComparisons,
  };
}

/** The EUR's decline in dollars over the window, percent (EUR is quoted per USD: a rising rate is a falling euro). */
function eurDeclineAt(observations: Series['observations'], index: number, days: number): number | undefined {
  const change = changePctAt(observations, index, days);
  return change === undefined ? undefined : (1 / (1 + change / 100) - 1) * -100;
}

function euOrigin(found: Found, parameters: InstabilityParameters): Origin | undefined {
  const settings = parameters.actors.europeanUnion;
  const eur = found.eur;
  if (!eur) return undefined;
  const observations = eur.observations;
  const since = runStart(observations, (index) => (eurDeclineAt(observations, index, settings.changeDays) ?? 0) > settings.eurDeclineAbovePct);
  if (since === undefined) return undefined;
  const decline = eurDeclineAt(observations, observations.length - 1, settings.changeDays)!;
  const intensity = decline > settings.acuteEurDeclineAbovePct ? 'ACUTE' : 'ELEVATED';
  return {
    actor: settings.actor,
    mode: settings.mode,
    intensity,
    ongoingSince: since,
    keySignals: [
      `EUR ${round(decline, 2)}% lower in dollars over ${settings.changeDays} days (trigger > ${settings.eurDeclineAbovePct}%)`,
      `Italy-Germany 10-year spread unknown (trigger > ${settings.spreadAboveBp} bps): no open Italian 10-year yield`,
    ],
    absorptionOutlook: `${intensity}: ${parameters.absorptionOutlook[intensity]}`,
    historicalComparisons: settings.historicalComparisons,
  };
}

function scenario(type: string, spec: ScenarioSpec, score: number, context: InstabilityContext, reason: string): Scenario {
  const steps = propagate(spec.propagation, spec.entryLayer, 'ACTIVE', context.layers, context.propagation);
  const name = (layer: number) => context.layers.find((reading) => reading.layer === layer)?.name ?? `layer ${layer}`;
  const ahead = steps.filter((step) => step.status !== 'ACTIVE');
  return {
    type,
    label: spec.label,
    confidence: round(score / 100, 2),
    entryLayer: spec.entryLayer,
    propagation: steps,
    unpricedEffects: steps.filter((step) => !step.pricedIn).map((step) => `L${step.layer} ${name(step.layer)}: ${step.leadSignal} not yet moved, typical lag ${step.typicalLag}`),
    historicalAnalog: spec.historicalAnalog,
    timelineNarrative: `${spec.label}: ${reason}; ${ahead.length === 0 ? 'every layer of its path has moved' : `next ${ahead.map((step) => `L${step.layer} ${name(step.layer)} in ${step.typicalLag}`).join(', then ')}`}.`,
  };
}

/** Spec §4: US_POLICY_INSTABILITY when the uncertainty index is HIGH or EXTREME and the US score is 30 or more. */
export function policyScenarioHolds(level: string | null, score: number | null, spec: InstabilityParameters['scenarios']['US_POLICY_INSTABILITY']): boolean {
  return level !== null && spec.uncertaintyLevels.includes(level) && score !== null && score >= spec.minScore;
}

/** Spec §4: US_FISCAL_DOMINANCE_RISK when debt is above 100% of GDP and (the deficit deteriorates or inflation is above 2.5%), and the fiscal score is 30 or more. */
export function fiscalScenarioHolds(components: FiscalComponents, score: number | null, spec: InstabilityParameters['scenarios']['US_FISCAL_DOMINANCE_RISK']): boolean {
  const debtAbove = components.debtToGdpPct !== null && components.debtToGdpPct > spec.debtAbovePct;
  const pressure = components.deficitTrend === 'DETERIORATING' || (components.cpiInflationPct !== null && components.cpiInflationPct > spec.inflationAbovePct);
  return debtAbove && pressure && score !== null && score >= spec.minScore;
}

function scenarios(us: UsComponents, usScore: number | null, fiscal: FiscalComponents, fiscalScore: number | null, context: InstabilityContext, parameters: InstabilityParameters): Scenario[] {
  const { US_POLICY_INSTABILITY: policy, US_FISCAL_DOMINANCE_RISK: dominance } = parameters.scenarios;
  const listed: Scenario[] = [];
  if (policyScenarioHolds(us.uncertaintyLevel, usScore, policy))
    listed.push(scenario('US_POLICY_INSTABILITY', policy, usScore!, context, `policy uncertainty ${us.uncertaintyLevel} and US instability score ${usScore} (>= ${policy.minScore})`));
  if (fiscalScenarioHolds(fiscal, fiscalScore, dominance))
    listed.push(
      scenario(
        'US_FISCAL_DOMINANCE_RISK',
        dominance,
        fiscalScore!,
        context,
        `debt ${fiscal.debtToGdpPct}% of GDP (> ${dominance.debtAbovePct}%), deficit ${fiscal.deficitTrend}, CPI inflation ${fiscal.cpiInflationPct}% (threshold ${dominance.inflationAbovePct}%), fiscal dominance score ${fiscalScore}`,
      ),
    );
  return listed;
}

function watchList(us: UsComponents, fiscal: FiscalComponents, found: Found, origins: readonly Origin[], parameters: InstabilityParameters): string[] {
  const { china, europeanUnion } = parameters.actors;
  const listed = new Set(origins.map((origin) => origin.actor));
  const items: string[] = [];
  if (!listed.has(china.actor) && found.cny)
    items.push(`China: CNY ${latest(found.cny).value} per USD (trigger > ${china.levelAbove} or > ${china.depreciationAbovePct}% in ${china.changeDays} days)`);
  if (!listed.has(europeanUnion.actor) && found.eur) {
    const decline = eurDeclineAt(found.eur.observations, found.eur.observations.length - 1, europeanUnion.changeDays);
    items.push(
      `European Union: EUR ${decline === undefined ? 'unknown' : `${round(decline, 2)}%`} decline over ${europeanUnion.changeDays} days (trigger > ${europeanUnion.eurDeclineAbovePct}%); Italy-Germany spread unknown`,
    );
  }
  if (fiscal.debtToGdpPct !== null)
    items.push(`US debt ${fiscal.debtToGdpPct}% of GDP against the ${parameters.fiscalDominance.thresholdPct}% fiscal-dominance threshold; deficit ${fiscal.deficitTrend ?? 'unknown'}`);
  if (fiscal.inflationExpectationsPct !== null) items.push(`10-year breakeven inflation ${fiscal.inflationExpectationsPct}%, CPI inflation ${fiscal.cpiInflationPct ?? 'unknown'}%`);
  if (us.uncertaintyLevel !== null) items.push(`US policy uncertainty ${us.uncertaintyLevel} (percentile ${us.policyUncertainty})`);
  return items;
}

/**
 * The instability model (spec §4 "Instability model", decision 0069): the US instability and
 * fiscal dominance scores with the spec's weights (components missing: weights renormalised), the
 * intensity ladder of spec §3, the four actors by their trigger rules and the two US scenarios.
 */
export function computeInstability(series: SeriesSet, context: InstabilityContext, parameters: InstabilityParameters): { body: Instability; used: Series[]; missing: string[] } {
  const { found, used, missing } = readInputs(series, Object.values(parameters.series));
  const byRole = Object.fromEntries(Object.entries(parameters.series).map(([role, id]) => [role, found[id]])) as Found;
  const us = usComponents(byRole, context, parameters);
  const fiscal = fiscalComponents(byRole, parameters);
  const usScore = usInstabilityScore(us, parameters.usInstability.weights);
  const fiscalScore = fiscalDominanceScore(fiscal, parameters.fiscalDominance.weights);
  const intensity = overallIntensity(usScore, fiscalScore, parameters.intensity);
  const origins = [usOrigin(byRole, usScore, us, parameters), chinaOrigin(byRole, parameters), russiaOrigin(byRole, parameters), euOrigin(byRole, parameters)].filter(
    (origin): origin is Origin => origin !== undefined,
  );
  const listed = scenarios(us, usScore, fiscal, fiscalScore, context, parameters);
  const narrative = `Instability ${intensity}: US instability ${usScore ?? 'not measured'}, fiscal dominance ${fiscalScore ?? 'not measured'}; ${origins.map((origin) => `${origin.actor} ${origin.intensity}`).join(', ')}; ${listed.length === 0 ? 'no US scenario triggered' : `scenarios ${listed.map((entry) => entry.type).join(', ')}`}.`;
  return {
    body: {
      usInstabilityScore: usScore ?? 0,
      fiscalDominanceScore: fiscalScore ?? 0,
      overallIntensity: intensity,
      components: { usInstability: us, fiscalDominance: fiscal },
      origins,
      scenarios: listed,
      dataAsOf: { epuDate: byRole.policyUncertainty?.asOf ?? null, tradeDate: byRole.tradePolicyUncertainty?.asOf ?? null, deficitDate: byRole.federalBalance?.asOf ?? null },
      systemicNarrative: narrative,
      watchList: watchList(us, fiscal, byRole, origins, parameters),
    },
    used,
    missing: [...missing, 'European Union: Italy 10-year government bond yield (IRLTLT01ITM156N or ECB IRS): no open copy found; the Italy-Germany spread trigger is unknown'],
  };
}
