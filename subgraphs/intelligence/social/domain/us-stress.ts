import { climbLadder, type LadderRule, readInputs, round, type Series, type SeriesSet } from '../../domain/index.js';

export type FeedbackRisk = 'HIGH' | 'ELEVATED' | 'LOW' | 'UNKNOWN';

export interface UsStressParameters {
  unemployment: { id: string; label: string };
  consumerSentiment: { id: string | null; missing: string };
  sahm: { averageMonths: number; lookbackMonths: number };
  feedbackRisk: LadderRule<Exclude<FeedbackRisk, 'UNKNOWN'>>[];
  regimeUplift: Record<FeedbackRisk, number>;
  mechanism: string;
}

export interface EconomicStressFeedback {
  usUnemploymentRate: number | null;
  usConsumerSentiment: number | null;
  feedbackRisk: FeedbackRisk;
  feedbackNarrative: string;
}

export interface UsStressReading {
  feedback: EconomicStressFeedback;
  used: Series[];
  missing: string[];
}

/**
 * The Sahm (2019) recession indicator: the latest `averageMonths`-month mean of the unemployment rate
 * minus the lowest such mean of the previous `lookbackMonths` months, in percentage points;
 * undefined without enough months.
 */
export function sahmGap(values: readonly number[], averageMonths: number, lookbackMonths: number): number | undefined {
  if (values.length < averageMonths + lookbackMonths) return undefined;
  const averageEndingAt = (end: number) => values.slice(end - averageMonths + 1, end + 1).reduce((sum, value) => sum + value, 0) / averageMonths;
  const last = values.length - 1;
  let lowest = Infinity;
  for (let end = last - lookbackMonths; end < last; end++) lowest = Math.min(lowest, averageEndingAt(end));
  return averageEndingAt(last) - lowest;
}

/** The live US stress feeds (dataset.series, so a live overlay replaces the snapshot): unemployment and its Sahm gap; consumer sentiment only from a licensed series. */
export function readUsStress(series: SeriesSet, parameters: UsStressParameters): UsStressReading {
  const ids = [parameters.unemployment.id, ...(parameters.consumerSentiment.id ? [parameters.consumerSentiment.id] : [])];
  const read = readInputs(series, ids);
  const missing = read.missing.map((id) => (id === parameters.unemployment.id ? parameters.unemployment.label : id));
  if (!parameters.consumerSentiment.id) missing.push(parameters.consumerSentiment.missing);
  const unemployment = read.found[parameters.unemployment.id];
  const sentiment = parameters.consumerSentiment.id ? read.found[parameters.consumerSentiment.id] : undefined;
  const usConsumerSentiment = sentiment ? round(sentiment.observations.at(-1)!.value, 1) : null;
  if (!unemployment) {
    return {
      feedback: { usUnemploymentRate: null, usConsumerSentiment, feedbackRisk: 'UNKNOWN', feedbackNarrative: `${parameters.unemployment.label} unavailable: feedback risk unknown` },
      used: read.used,
      missing,
    };
  }
  const last = unemployment.observations.at(-1)!;
  const gap = sahmGap(
    unemployment.observations.map((observation) => observation.value),
    parameters.sahm.averageMonths,
    parameters.sahm.lookbackMonths,
  );
  const feedbackRisk: FeedbackRisk = gap === undefined ? 'UNKNOWN' : climbLadder(parameters.feedbackRisk, round(gap, 2));
  const gapText = gap === undefined ? 'Sahm-rule gap not computable (too few months)' : `Sahm-rule gap ${round(gap, 2)} pt`;
  const sentimentText = usConsumerSentiment === null ? '' : `; consumer sentiment ${usConsumerSentiment}`;
  const feedbackNarrative = `${feedbackRisk}: US unemployment ${last.value}% (${last.date.slice(0, 7)}), ${gapText}${sentimentText}; ${parameters.mechanism}`;
  return { feedback: { usUnemploymentRate: last.value, usConsumerSentiment, feedbackRisk, feedbackNarrative }, used: read.used, missing };
}
