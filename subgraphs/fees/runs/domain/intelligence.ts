/**
 * The AI intelligence object of the stability and ESG oracles (Document 1): qualitative only. The
 * outlook, confidence and alerts are decided here by rules; a synthesiser may only rewrite the
 * reasoning text, and the object is omitted when it fails (the authoritative numbers never depend on it).
 */

export type IntelligenceOutlook = 'IMPROVING' | 'STABLE' | 'DETERIORATING' | 'UNCERTAIN';

export interface IntelligenceObject {
  reasoning: string;
  /** 0-1. */
  confidence: number;
  /** At most 3. */
  alerts: string[];
  outlook: IntelligenceOutlook;
  model: string;
  generatedAt: string;
}

export interface IntelligenceParameters {
  trendRuns: number;
  trendPoints: number;
  minConfidencePct: number;
  maxAlerts: number;
}

/** Everything but the text's author: what the synthesiser is given and what the object keeps as decided. */
export interface IntelligenceDraft {
  topic: string;
  facts: Record<string, unknown>;
  ruleBasedText: string;
  confidence: number;
  alerts: string[];
  outlook: IntelligenceOutlook;
}

export interface IntelligenceInput {
  topic: string;
  /** The authoritative score of this run (stability score, or the ESG average). */
  score: number;
  /** Scores of the previous successful runs, newest first. */
  previousScores: readonly number[];
  /** 0-100. */
  confidencePct: number;
  /** Most severe first. */
  alerts: readonly string[];
  /** Sentences naming the drivers, in the order they matter. */
  drivers: readonly string[];
  facts: Record<string, unknown>;
}

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function outlookOf(score: number, previousScores: readonly number[], confidencePct: number, parameters: IntelligenceParameters): { outlook: IntelligenceOutlook; change: number | null } {
  const previous = previousScores.slice(0, parameters.trendRuns);
  const change = previous.length === 0 ? null : round(score - previous.reduce((sum, value) => sum + value, 0) / previous.length, 1);
  if (confidencePct < parameters.minConfidencePct) return { outlook: 'UNCERTAIN', change };
  if (change === null || Math.abs(change) <= parameters.trendPoints) return { outlook: 'STABLE', change };
  return { outlook: change > 0 ? 'IMPROVING' : 'DETERIORATING', change };
}

export function draftIntelligence(input: IntelligenceInput, parameters: IntelligenceParameters): IntelligenceDraft {
  const { outlook, change } = outlookOf(input.score, input.previousScores, input.confidencePct, parameters);
  const trend =
    change === null
      ? 'This is the first run on record, so no trend is given.'
      : `Against the mean of the previous ${Math.min(input.previousScores.length, parameters.trendRuns)} runs the score moved ${change >= 0 ? '+' : ''}${change} points.`;
  const alerts = input.alerts.slice(0, parameters.maxAlerts);
  const alertText = alerts.length === 0 ? 'No alert is active.' : `Active alerts: ${alerts.join('; ')}.`;
  const ruleBasedText = [...input.drivers, trend, alertText, `Outlook ${outlook} at ${round(input.confidencePct, 0)}% confidence in the inputs.`].join(' ');
  return {
    topic: input.topic,
    facts: { ...input.facts, score: input.score, scoreChange: change, outlook, alerts },
    ruleBasedText,
    confidence: round(Math.min(Math.max(input.confidencePct, 0), 100) / 100, 2),
    alerts,
    outlook,
  };
}

/** The object once a synthesiser has written the reasoning. */
export function intelligenceFrom(draft: IntelligenceDraft, synthesis: { text: string; model: string; generatedAt: string }): IntelligenceObject {
  return { reasoning: synthesis.text, confidence: draft.confidence, alerts: draft.alerts, outlook: draft.outlook, model: synthesis.model, generatedAt: synthesis.generatedAt };
}
