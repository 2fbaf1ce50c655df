import { clamp, climbLadder, type LadderRule, mean, round } from '../../domain/index.js';
import { type ConditionResult, type ConditionRule, evaluateCondition, type Readings } from './conditions.js';
import { type LayerParameters, type LayerReading, readLayers } from './layers.js';
import { type PathStep, propagate, type PropagationParameters, type PropagationStep } from './propagation.js';
import type { ReadingParameters } from './readings.js';

export type CascadeStatus = 'ACTIVE' | 'FORMING' | 'DORMANT';
export type OverallStatus = 'CRITICAL' | 'HIGH' | 'ELEVATED' | 'STABLE' | 'NO_DATA';

export interface CascadeSpec {
  type: string;
  label: string;
  entryLayer: number;
  /** all: ACTIVE when every condition holds; any: ACTIVE when one does (CENTRAL_BANK_POLICY_SHOCK's "or"). */
  combine: 'all' | 'any';
  conditions: ConditionRule[];
  propagation: PathStep[];
  /** A dated, cited episode for each status the cascade can be listed with. */
  analogs: Record<'ACTIVE' | 'FORMING', string>;
}

export interface CascadeParameters extends LayerParameters, PropagationParameters {
  readings: ReadingParameters;
  /** Share of the conditions of an `all` cascade that makes it FORMING when not all hold. */
  formingShare: number;
  confidenceWeights: { triggerShare: number; entryLayerScore: number };
  systemicScore: { activeCascadeBoost: number; formingCascadeBoost: number };
  overallStatus: LadderRule<Exclude<OverallStatus, 'NO_DATA'>>[];
  cascades: CascadeSpec[];
}

export interface CascadeEvaluation {
  type: string;
  status: CascadeStatus;
  conditionsMet: number;
  conditionsKnown: number;
  conditionsTotal: number;
}

export interface ListedCascade {
  type: string;
  label: string;
  status: 'ACTIVE' | 'FORMING';
  confidence: number;
  entryLayer: number;
  triggers: ConditionResult[];
  propagation: PropagationStep[];
  unpricedEffects: string[];
  historicalAnalog: string;
  timelineNarrative: string;
}

export interface Cascade {
  nervousSystem: { systemicRiskScore: number; overallStatus: OverallStatus; activeCascadeCount: number; layers: LayerReading[] };
  activeCascades: ListedCascade[];
  evaluated: CascadeEvaluation[];
  unpricedRisks: string[];
  systemicNarrative: string;
  earlyWarningSignals: string[];
}

/** The status of one cascade from its trigger conditions (decision 0069). */
export function cascadeStatus(spec: Pick<CascadeSpec, 'combine'>, triggers: readonly ConditionResult[], formingShare: number): CascadeStatus {
  const met = triggers.filter((trigger) => trigger.met === true).length;
  if (spec.combine === 'any') return met > 0 ? 'ACTIVE' : 'DORMANT';
  if (met === triggers.length) return 'ACTIVE';
  return met / triggers.length >= formingShare ? 'FORMING' : 'DORMANT';
}

function triggerShare(spec: CascadeSpec, triggers: readonly ConditionResult[]): number {
  const met = triggers.filter((trigger) => trigger.met === true).length;
  return spec.combine === 'any' ? (met > 0 ? 1 : 0) : met / triggers.length;
}

/** 0-1: the weighted share of trigger conditions met and the entry layer's own score. */
export function cascadeConfidence(share: number, entryScore: number | null, weights: CascadeParameters['confidenceWeights']): number {
  return round(clamp(weights.triggerShare * share + weights.entryLayerScore * ((entryScore ?? 0) / 100), 0, 1), 2);
}

const layerName = (layers: readonly LayerReading[], layer: number) => layers.find((reading) => reading.layer === layer)?.name ?? `layer ${layer}`;
const scoreText = (score: number | null) => (score === null ? 'no data' : String(score));

function unpricedEffects(steps: readonly PropagationStep[], layers: readonly LayerReading[]): string[] {
  return steps
    .filter((step) => !step.pricedIn)
    .map((step) => `L${step.layer} ${layerName(layers, step.layer)}: ${step.leadSignal} not yet moved (layer score ${scoreText(step.layerScore)}), typical lag ${step.typicalLag}`);
}

function conditionText(trigger: ConditionResult): string {
  return `${trigger.label} (${trigger.value === null ? 'unknown' : round(trigger.value, 2)} ${trigger.threshold})`;
}

function timeline(spec: CascadeSpec, status: 'ACTIVE' | 'FORMING', triggers: readonly ConditionResult[], steps: readonly PropagationStep[], layers: readonly LayerReading[]): string {
  const met = triggers.filter((trigger) => trigger.met === true);
  const ahead = steps.filter((step) => step.status !== 'ACTIVE' && step.layer !== spec.entryLayer);
  const next = ahead.length === 0 ? 'every layer of its path has moved' : `next ${ahead.map((step) => `L${step.layer} ${layerName(layers, step.layer)} in ${step.typicalLag}`).join(', then ')}`;
  return `${spec.label} ${status}: ${met.length} of ${triggers.length} trigger conditions met (${met.map(conditionText).join('; ')}); enters at L${spec.entryLayer} ${layerName(layers, spec.entryLayer)}; ${next}.`;
}

function listCascade(spec: CascadeSpec, status: 'ACTIVE' | 'FORMING', triggers: ConditionResult[], layers: readonly LayerReading[], parameters: CascadeParameters): ListedCascade {
  const steps = propagate(spec.propagation, spec.entryLayer, status, layers, parameters);
  const entryScore = layers.find((reading) => reading.layer === spec.entryLayer)?.score ?? null;
  return {
    type: spec.type,
    label: spec.label,
    status,
    confidence: cascadeConfidence(triggerShare(spec, triggers), entryScore, parameters.confidenceWeights),
    entryLayer: spec.entryLayer,
    triggers,
    propagation: steps,
    unpricedEffects: unpricedEffects(steps, layers),
    historicalAnalog: spec.analogs[status],
    timelineNarrative: timeline(spec, status, triggers, steps, layers),
  };
}

/** The score of the whole system: the mean of the layers measured, raised for each active and forming cascade, capped at 100. */
export function systemicRiskScore(layers: readonly LayerReading[], active: number, forming: number, parameters: CascadeParameters['systemicScore']): number | null {
  const scores = layers.flatMap((reading) => (reading.score === null ? [] : [reading.score]));
  if (scores.length === 0) return null;
  return round(clamp(mean(scores) + parameters.activeCascadeBoost * active + parameters.formingCascadeBoost * forming, 0, 100), 1);
}

function warnings(evaluations: ReadonlyArray<{ spec: CascadeSpec; status: CascadeStatus; triggers: ConditionResult[] }>, layers: readonly LayerReading[]): string[] {
  const partial = evaluations
    .filter((evaluation) => evaluation.status !== 'ACTIVE')
    .flatMap(({ spec, triggers }) => triggers.filter((trigger) => trigger.met === true).map((trigger) => `${spec.type}: ${conditionText(trigger)} met`));
  const stressed = layers
    .filter((reading) => reading.status === 'STRESSED' || reading.status === 'CRITICAL')
    .map((reading) => `L${reading.layer} ${reading.name} ${reading.status} (${reading.score}): ${reading.basis}`);
  return [...stressed, ...partial];
}

function narrative(score: number | null, status: OverallStatus, listed: readonly ListedCascade[], layers: readonly LayerReading[]): string {
  const active = listed.filter((cascade) => cascade.status === 'ACTIVE');
  const forming = listed.filter((cascade) => cascade.status === 'FORMING');
  const top = [...layers]
    .filter((reading) => reading.score !== null)
    .sort((a, b) => b.score! - a.score!)
    .slice(0, 2)
    .map((reading) => `L${reading.layer} ${reading.name} (${reading.score})`);
  const cascades =
    listed.length === 0
      ? 'no cascade triggered'
      : `${active.length} active (${active.map((cascade) => cascade.type).join(', ') || 'none'}), ${forming.length} forming (${forming.map((cascade) => cascade.type).join(', ') || 'none'})`;
  return `Systemic risk ${score ?? 'not measured'} (${status}): ${cascades}; most stressed layers ${top.join(' and ') || 'none measured'}.`;
}

/**
 * The cascade model (spec §4 "Cascade model", decision 0069): the seven layers scored, each of the
 * eight cascade types evaluated on its triggers, ACTIVE and FORMING cascades listed with their
 * propagation, the nervous-system summary and the narratives composed from the values.
 */
export function computeCascade(readings: Readings, parameters: CascadeParameters): Cascade {
  const layers = readLayers(readings, parameters);
  const evaluations = parameters.cascades.map((spec) => {
    const triggers = spec.conditions.map((rule) => evaluateCondition(rule, readings));
    return { spec, triggers, status: cascadeStatus(spec, triggers, parameters.formingShare) };
  });
  const listed = evaluations
    .flatMap(({ spec, triggers, status }) => (status === 'DORMANT' ? [] : [listCascade(spec, status, triggers, layers, parameters)]))
    .sort((a, b) => Number(b.status === 'ACTIVE') - Number(a.status === 'ACTIVE') || b.confidence - a.confidence);
  const active = listed.filter((cascade) => cascade.status === 'ACTIVE').length;
  const score = systemicRiskScore(layers, active, listed.length - active, parameters.systemicScore);
  const overallStatus: OverallStatus = score === null ? 'NO_DATA' : climbLadder(parameters.overallStatus, score);
  return {
    nervousSystem: { systemicRiskScore: score ?? 0, overallStatus, activeCascadeCount: active, layers },
    activeCascades: listed,
    evaluated: evaluations.map(({ spec, triggers, status }) => ({
      type: spec.type,
      status,
      conditionsMet: triggers.filter((trigger) => trigger.met === true).length,
      conditionsKnown: triggers.filter((trigger) => trigger.met !== null).length,
      conditionsTotal: triggers.length,
    })),
    unpricedRisks: listed.flatMap((cascade) => cascade.unpricedEffects.map((effect) => `${cascade.type}: ${effect}`)),
    systemicNarrative: narrative(score, overallStatus, listed, layers),
    earlyWarningSignals: warnings(evaluations, layers),
  };
}

/** Inputs the cascade names that are not openly published: the layers' and the conditions' with no open series. */
export function cascadeMissing(parameters: CascadeParameters, readings: Readings): string[] {
  const layerGaps = parameters.layers.flatMap((spec) => spec.missing.map((item) => `L${spec.layer}: ${item}`));
  const unknown = parameters.cascades.flatMap((spec) => spec.conditions.filter((rule) => readings[rule.reading] === undefined).map((rule) => `${spec.type} ${rule.label}: ${rule.meaning}`));
  return [...layerGaps, ...unknown];
}
