// Small arithmetic helpers shared by the forecast model. Pure and locale-free.

const DAY_MS = 86_400_000;

/** A closed interval of values, min to max. */
export interface ValueRange {
  min: number;
  max: number;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Position of value inside the range, 0 at or below min, 1 at or above max. */
export function normalise(value: number, range: ValueRange): number {
  if (range.max <= range.min) return value >= range.max ? 1 : 0;
  return clamp((value - range.min) / (range.max - range.min), 0, 1);
}

/**
 * Half-up rounding away from zero, done on the decimal string so that 1.005 becomes 1.01
 * (Math.round(1.005 * 100) gives 1.00 because 1.005 is stored as 1.00499...).
 */
export function roundTo(value: number, decimals: number): number {
  // From 1e15 up a double has no fractional digits left to round.
  if (!Number.isFinite(value) || Math.abs(value) >= 1e15) return value;
  const magnitude = Math.abs(value);
  const text = String(magnitude);
  // Exponent notation (below 1e-6) cannot take the decimal-string shift.
  const rounded = text.includes('e') ? Math.round(magnitude * 10 ** decimals) / 10 ** decimals : Number(`${Math.round(Number(`${text}e${decimals}`))}e-${decimals}`);
  return value < 0 && rounded !== 0 ? -rounded : rounded;
}

export function sum(values: readonly number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

/** Sum of weight × value divided by the sum of weights; 0 when the weights sum to 0. */
export function weightedMean(items: readonly { weight: number; value: number }[]): number {
  const totalWeight = sum(items.map((i) => i.weight));
  if (totalWeight <= 0) return 0;
  return sum(items.map((i) => i.weight * i.value)) / totalWeight;
}

/** Sample standard deviation (n - 1); 0 for fewer than two values. */
export function sampleStdDev(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = sum(values) / values.length;
  return Math.sqrt(sum(values.map((v) => (v - mean) ** 2)) / (values.length - 1));
}

/** Whole and fractional days from earlier to later; negative when later is before earlier. */
export function daysBetween(earlier: Date, later: Date): number {
  return (later.getTime() - earlier.getTime()) / DAY_MS;
}

/** Code-unit order, independent of the runtime's locale. */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
