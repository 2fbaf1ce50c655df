/**
 * A trigger condition of the cascade and instability models: a named reading against a bound from
 * the parameters. A reading that could not be measured leaves the condition unknown (null), never
 * met: a missing input cannot trigger a cascade.
 */
export interface ConditionRule {
  id: string;
  label: string;
  /** Key of the readings the models measure (readings.ts). */
  reading: string;
  /** Holds when the reading is strictly above this bound. */
  above?: number;
  /** Holds when the reading is at or above this bound. */
  atLeast?: number;
  /** Holds when the reading is strictly below this bound. */
  below?: number;
  /** What the condition means, quantitatively (shown with the answer). */
  meaning: string;
}

/** Measured quantities by name; undefined when an input is missing. */
export type Readings = Readonly<Record<string, number | undefined>>;

export interface ConditionResult {
  id: string;
  label: string;
  value: number | null;
  threshold: string;
  /** null: the reading is unknown. */
  met: boolean | null;
  meaning: string;
}

export function thresholdText(rule: ConditionRule): string {
  if (rule.above !== undefined) return `> ${rule.above}`;
  if (rule.atLeast !== undefined) return `>= ${rule.atLeast}`;
  if (rule.below !== undefined) return `< ${rule.below}`;
  throw new Error(`condition ${rule.id} has no bound`);
}

export function conditionHolds(rule: ConditionRule, value: number): boolean {
  if (rule.above !== undefined) return value > rule.above;
  if (rule.atLeast !== undefined) return value >= rule.atLeast;
  if (rule.below !== undefined) return value < rule.below;
  throw new Error(`condition ${rule.id} has no bound`);
}

export function evaluateCondition(rule: ConditionRule, readings: Readings): ConditionResult {
  const value = readings[rule.reading];
  const known = value !== undefined && Number.isFinite(value);
  return {
    id: rule.id,
    label: rule.label,
    value: known ? value : null,
    threshold: thresholdText(rule),
    met: known ? conditionHolds(rule, value) : null,
    meaning: rule.meaning,
  };
}
