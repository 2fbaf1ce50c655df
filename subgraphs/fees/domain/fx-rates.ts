/**
 * FX rates against USD (DESIGN.md §1: the fees subgraph owns FX rates; decision 0026), pure.
 * A rate is the number of units of the currency per 1 US dollar, exactly as the Federal Reserve's
 * H.10 series shipped in data/fx/ state it (EUR "0.8635": 1 USD buys 0.8635 EUR). It is kept as
 * the published decimal text, never through a float, and never inverted (the inverse of a
 * 4-decimal figure is not a published figure).
 */

/** One observation of a daily series. */
export interface FxObservation {
  /** YYYY-MM-DD. */
  date: string;
  /** Units of the currency per 1 USD, decimal text as published. */
  value: string;
}

/** ISO 4217 alphabetic code form. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A published rate: positive decimal text, no sign, no exponent. */
const RATE = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,12})?$/;

export class FxSeriesError extends Error {}

/** A `date,value` CSV (header row, ascending dates) into observations; any row out of form throws. */
export function parseFxSeries(text: string, name: string): FxObservation[] {
  const lines = text.split('\n').filter((line) => line.length > 0);
  if (lines[0] !== 'date,value') throw new FxSeriesError(`${name}: the header is not date,value`);
  const observations: FxObservation[] = [];
  for (const [index, line] of lines.slice(1).entries()) {
    const [date, value, extra] = line.split(',');
    if (extra !== undefined || !date || !value || !DATE.test(date) || !RATE.test(value) || !/[1-9]/.test(value)) {
      throw new FxSeriesError(`${name}: row ${index + 2} is not a date and a positive rate`);
    }
    const previous = observations.at(-1);
    if (previous && previous.date >= date) throw new FxSeriesError(`${name}: row ${index + 2} is not after the row before it`);
    observations.push({ date, value });
  }
  if (observations.length === 0) throw new FxSeriesError(`${name}: no observation`);
  return observations;
}

/** The latest observation of an ascending series. */
export function latestObservation(series: readonly FxObservation[]): FxObservation {
  const last = series.at(-1);
  if (!last) throw new FxSeriesError('no observation');
  return last;
}

/** Epoch seconds of an observation date (00:00 UTC of that day). */
export const epochSecondsOfDate = (date: string): number => Date.parse(`${date}T00:00:00Z`) / 1000;
