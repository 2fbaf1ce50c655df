import { round, type Series, shiftDate } from '../../domain/index.js';
import type { IntelligenceDataset, SignalEndpoint } from '../../shared/signal-endpoint.js';
import { dayOf, isoWeekStart, startOfDay } from './calendar.js';
import type { DraftCall, Evidence, LedgerModel, ModelRecord, Observation } from './ledger.js';

export interface RegimeCallParameters {
  horizonDays: number;
}

/** A signal whose regime the ledger calls each week: one entry of the registry. */
export interface RegimeModelSpec<Body extends object> {
  id: string;
  title: string;
  subject: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  endpoint: SignalEndpoint<any, Body>;
  regimeOf(body: Body): string;
  /** The index behind the regime, shown as evidence and as the observed value. */
  indexOf(body: Body): { label: string; value: number };
  /** The daily series that dates the model's data: a call resolves once it has moved past the base date. */
  datingSeries: string;
}

interface Reading {
  regime: string;
  index: { label: string; value: number };
}

async function readRegime<Body extends object>(spec: RegimeModelSpec<Body>, dataset: IntelligenceDataset, day: string): Promise<Reading | undefined> {
  try {
    const answer = await spec.endpoint.compute({ dataset, now: startOfDay(day), params: {} });
    return { regime: spec.regimeOf(answer.body), index: spec.indexOf(answer.body) };
  } catch {
    // A model that cannot compute on a day (no component yet) has no regime that day.
    return undefined;
  }
}

/**
 * The probability that the regime persists over the horizon: the model's own record of persistence
 * in the ledger, Laplace-smoothed, (held + 1) / (resolved + 2), so one half before any call resolved.
 */
export function persistenceProbability(record: ModelRecord): number {
  return round((record.hits + 1) / (record.resolved + 2), 4);
}

function evidenceOf(reading: Reading, dating: Series, record: ModelRecord): Evidence[] {
  return [
    { id: reading.index.label, label: `${reading.index.label} on the issue day`, asOf: dating.asOf, value: reading.index.value },
    { id: dating.id, label: `${dating.title}: latest observation (dates the data)`, asOf: dating.asOf, value: dating.observations.at(-1)!.value },
    { id: 'ledger.resolved', label: 'calls of this model resolved before this one', asOf: null, value: record.resolved },
    { id: 'ledger.held', label: 'of which the regime held over the horizon', asOf: null, value: record.hits },
  ];
}

/** The ledger model of a signal's weekly regime call: the regime will still be what it is now, `horizonDays` later. */
export function regimeLedgerModel<Body extends object>(spec: RegimeModelSpec<Body>, parameters: RegimeCallParameters): LedgerModel {
  const quantity = `${spec.endpoint.id} ${spec.subject}`;
  return {
    id: spec.id,
    title: spec.title,
    subject: spec.subject,
    period: 'iso-week',
    horizon: `${parameters.horizonDays} calendar days`,
    series: [spec.datingSeries],
    periodOf: (now) => isoWeekStart(dayOf(now)),
    async call(dataset: IntelligenceDataset, now: Date, record: ModelRecord): Promise<DraftCall | undefined> {
      const day = dayOf(now);
      const dating = dataset.series.get(spec.datingSeries);
      const reading = await readRegime(spec, dataset, day);
      if (!dating || !reading) return undefined;
      const targetDate = shiftDate(day, parameters.horizonDays);
      return {
        model: spec.id,
        subject: spec.subject,
        period: isoWeekStart(day),
        issuedAt: now.toISOString(),
        resolvesAt: startOfDay(shiftDate(targetDate, 1)).toISOString(),
        statement: `The ${quantity} computed on the data of ${targetDate} will still be ${reading.regime} (${reading.index.label} ${reading.index.value} on the data of ${day}, ${dating.id} as of ${dating.asOf}).`,
        probability: persistenceProbability(record),
        evidence: evidenceOf(reading, dating, record),
        resolutionRule: {
          quantity,
          series: spec.datingSeries,
          comparison: 'EQUALS',
          threshold: null,
          category: reading.regime,
          baseDate: dating.asOf,
          targetDate,
          text: `recompute ${spec.endpoint.id} on the dataset as it stood on ${targetDate} (no observation dated later); the call holds when its ${spec.subject} equals ${reading.regime}`,
        },
        method: `the regime held over the horizon in ${record.hits} of the ${record.resolved} earlier calls of this model the ledger resolved: p = (${record.hits} + 1) / (${record.resolved} + 2)`,
      };
    },
    async resolve(datasetAtTarget: IntelligenceDataset, call: DraftCall): Promise<Observation | undefined> {
      const rule = call.resolutionRule;
      const reading = await readRegime(spec, datasetAtTarget, rule.targetDate);
      if (!reading) return undefined;
      return { value: reading.index.value, category: reading.regime, asOf: datasetAtTarget.series.get(rule.series)?.asOf ?? null, outcome: reading.regime === rule.category };
    },
  };
}
