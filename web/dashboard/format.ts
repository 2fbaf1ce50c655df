// Figures as people read them. USDC amounts arrive as integer base units (6 decimals).

const USDC_DECIMALS = 6n;

export function formatUsdc(baseUnits: bigint): string {
  const scale = 10n ** USDC_DECIMALS;
  const whole = baseUnits / scale;
  const fraction = (baseUnits % scale).toString().padStart(Number(USDC_DECIMALS), '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction} USDC`;
}

export function formatNumber(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { maximumFractionDigits: digits });
}

/** An as-of as the API gives it (a date, a timestamp or a year), shown as its date part. */
export function formatAsOf(asOf: string | null | undefined): string {
  if (!asOf) return 'unknown';
  return /^\d{4}-\d{2}-\d{2}T/.test(asOf) ? asOf.slice(0, 10) : asOf;
}

export function formatEpochSeconds(seconds: number): string {
  if (!seconds) return 'not yet';
  return new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return 'unknown';
  return iso.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC');
}

/** SNAKE_CASE enum values read as words. */
export function humanize(value: string): string {
  return value.replaceAll('_', ' ').toLowerCase();
}
