// How numbers are presented: one rounding rule per kind of figure, and locale-free text formats.
// Everything is computed unrounded; rounding happens only here, when a result is shaped.

import { roundTo } from './numeric.js';

/** Scores and indices 0-100. */
export const SCORE_DECIMALS = 1;
/** Temperature anomaly (°C) and drought index. */
export const SIGNAL_DECIMALS = 2;
/** Confidence, coverage 0-1. */
export const CONFIDENCE_DECIMALS = 2;
/** Production shares 0-1. */
export const SHARE_DECIMALS = 3;
/** US dollars: cents. */
export const USD_DECIMALS = 2;
/** Percentages. */
export const PCT_DECIMALS = 2;

export const presentScore = (value: number): number => roundTo(value, SCORE_DECIMALS);
export const presentSignal = (value: number): number => roundTo(value, SIGNAL_DECIMALS);
export const presentConfidence = (value: number): number => roundTo(value, CONFIDENCE_DECIMALS);
export const presentShare = (value: number): number => roundTo(value, SHARE_DECIMALS);
export const presentUsd = (value: number): number => roundTo(value, USD_DECIMALS);
export const presentPct = (value: number): number => roundTo(value, PCT_DECIMALS);

/** Fixed decimals without locale: 1234.5 with 2 → "1234.50". */
export function fixed(value: number, decimals: number): string {
  const rounded = roundTo(value, decimals);
  return (Object.is(rounded, -0) ? 0 : rounded).toFixed(decimals);
}

/** Always signed: +1.9, -0.4, +0.0. */
export function signed(value: number, decimals: number): string {
  const text = fixed(value, decimals);
  return text.startsWith('-') ? text : `+${text}`;
}

/** US dollars with thousands separators and cents: $1,234,567.89. */
export function usd(value: number): string {
  const text = fixed(Math.abs(value), USD_DECIMALS);
  const [whole = '0', cents = '00'] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 && Number(text) !== 0 ? '-' : ''}$${grouped}.${cents}`;
}

/** A 0-1 share as a percentage with one decimal: 0.2255 → "22.6%". */
export function sharePct(share: number): string {
  return `${fixed(share * 100, 1)}%`;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
