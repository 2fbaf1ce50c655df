import { AppError } from '../../../platform/errors.js';
import { fxSeries } from '../data/fx.js';
import { CURRENCY_CODE, epochSecondsOfDate } from '../domain/index.js';

/**
 * The FX rate against USD of one currency (decision 0026): the latest shipped observation,
 * `rate` in units of the currency per 1 USD as the Federal Reserve publishes it, `updatedAt` the
 * observation date's 00:00 UTC in epoch seconds (USD: 1, stamped now). The spec's shape is {currency, rate, updatedAt};
 * the other fields say where the figure comes from (the integration API answers only the three).
 */
export interface FxRateAnswer {
  currency: string;
  rate: string;
  updatedAt: number;
  direction: typeof FX_DIRECTION;
  observationDate: string;
  dataQuality: 'published' | 'definition';
  source: string;
  url: string;
  asOf: string;
  licence: string;
}

export const FX_DIRECTION = 'units of currency per 1 USD';

/**
 * How long an FX answer may be reused (its Cache-Control max-age, decision 0044): a rate changes
 * only with a new snapshot, published daily; USD's updatedAt (the time of the answer) is at most
 * this old when reused.
 */
export const FX_RATE_MAX_AGE_SECONDS = 60;

/** `currency` must be an ISO 4217 code in capitals (400 otherwise); one without a shipped series is a 404. */
export function fxRateOf(currency: string, now: Date): FxRateAnswer {
  if (!CURRENCY_CODE.test(currency)) throw new AppError('FEE_ERR_INVALID_CURRENCY');
  if (currency === 'USD') {
    // Not an observation: stamped with the time of the answer.
    const today = now.toISOString().slice(0, 10);
    return {
      currency,
      rate: '1',
      updatedAt: Math.floor(now.getTime() / 1000),
      direction: FX_DIRECTION,
      observationDate: today,
      dataQuality: 'definition',
      source: 'One US dollar is one US dollar: a definition, not an observation.',
      url: 'https://www.iso.org/iso-4217-currency-codes.html',
      asOf: today,
      licence: 'n/a',
    };
  }
  const series = fxSeries().get(currency);
  if (!series) throw new AppError('FEE_ERR_FX_RATE_NOT_FOUND', { message: `No FX rate against USD is shipped for ${currency}.` });
  const { latest, provenance } = series;
  return {
    currency,
    rate: latest.value,
    updatedAt: epochSecondsOfDate(latest.date),
    direction: FX_DIRECTION,
    observationDate: latest.date,
    dataQuality: 'published',
    source: `${provenance.source}; ${provenance.title}`,
    url: provenance.url,
    asOf: provenance.asOf,
    licence: provenance.licence,
  };
}

/** Every shipped currency code, USD first. */
export const fxCurrencies = (): string[] => ['USD', ...[...fxSeries().keys()].sort()];
