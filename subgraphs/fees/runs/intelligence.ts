import type { Synthesiser } from '../../../platform/synthesis.js';
import intelligenceParameters from '../data/intelligence-parameters.json' with { type: 'json' };
import { draftIntelligence, intelligenceFrom, type IntelligenceInput, type IntelligenceObject } from './domain/index.js';
import type { OracleRunStore } from './store.js';

/** What an oracle job needs to add the intelligence object to its run's output. */
export interface IntelligenceSources {
  store: OracleRunStore;
  synthesiser: Synthesiser;
}

/** Scores of the oracle's previous successful runs, newest first (for the intelligence outlook). */
export async function previousScores(store: OracleRunStore, oracle: string, now: Date): Promise<number[]> {
  const runs = await store.recent(oracle, new Date(now.getTime() - 86_400_000), 50).catch(() => []);
  return runs.flatMap((run) => (run.status === 'SUCCESS' && run.score !== null ? [run.score] : []));
}

/**
 * The intelligence object of a run, drafted by rules from `input` and the oracle's previous scores,
 * or no field when the synthesiser fails (Document 1: omitted, never overriding the numbers).
 */
export async function intelligenceOf(sources: IntelligenceSources, oracle: string, now: Date, input: Omit<IntelligenceInput, 'previousScores'>): Promise<{ intelligence?: IntelligenceObject }> {
  const draft = draftIntelligence({ ...input, previousScores: await previousScores(sources.store, oracle, now) }, intelligenceParameters);
  const synthesis = await sources.synthesiser.synthesise({ topic: draft.topic, facts: draft.facts, ruleBasedText: draft.ruleBasedText });
  return synthesis ? { intelligence: intelligenceFrom(draft, synthesis) } : {};
}
