import { isStale, seriesAsOf } from '../domain/index.js';
import type { IntelligenceDataset } from '../shared/signal-endpoint.js';
import { dayOf } from './domain/index.js';
import { callId, type DraftCall, type LedgerModel, type ModelRecord, resolutionStep, type ResolutionTiming, resolvedBy, voided } from './domain/index.js';
import type { LedgerStore } from './ledger-store.js';

export interface SweepResult {
  /** Calls this sweep wrote (another replica may have written the rest of the period's calls). */
  recorded: number;
  /** Resolutions this sweep wrote (RESOLVED or VOID). */
  resolved: number;
}

export interface Ledger {
  store: LedgerStore;
  models: readonly LedgerModel[];
  timing: ResolutionTiming;
}

/** The model's resolved calls so far and how many held. */
async function recordOf(store: LedgerStore, model: string): Promise<ModelRecord> {
  const resolved = await store.calls({ model, status: 'RESOLVED' });
  return { resolved: resolved.length, hits: resolved.filter((call) => call.resolution?.outcome === true).length };
}

/**
 * A call made on data that is already stale (its dating series older than its publication rhythm
 * allows, the envelope's own rule) would be a call on a past the caller cannot act on, voided later
 * and never scored: it is not made.
 */
function onFreshData(draft: DraftCall, dataset: IntelligenceDataset, now: Date): boolean {
  const dating = dataset.series.get(draft.resolutionRule.series);
  return dating !== undefined && !isStale(dating, dayOf(now));
}

/** Records each model's call for the period of `now` unless it is recorded already or its data is stale. */
async function recordCalls(ledger: Ledger, dataset: IntelligenceDataset, now: Date): Promise<number> {
  const drafts = [];
  for (const model of ledger.models) {
    if (await ledger.store.has(callId(model.id, model.subject, model.periodOf(now)))) continue;
    const draft = await model.call(dataset, now, await recordOf(ledger.store, model.id));
    if (draft && onFreshData(draft, dataset, now)) drafts.push(draft);
  }
  return ledger.store.record(drafts);
}

/** Resolves every due call that can be: on the dataset as it stood on its target day, never later. */
async function resolveDueCalls(ledger: Ledger, dataset: IntelligenceDataset, now: Date): Promise<number> {
  const byId = new Map(ledger.models.map((model) => [model.id, model]));
  const resolutions = [];
  for (const call of await ledger.store.due(now)) {
    const model = byId.get(call.model);
    if (!model) continue;
    const step = resolutionStep(call, dataset, now, ledger.timing);
    if (step.kind === 'VOID') resolutions.push({ callId: call.id, resolution: voided(step.reason, now) });
    if (step.kind !== 'RESOLVE') continue;
    const observation = await model.resolve(step.datasetAtTarget, call);
    if (observation) resolutions.push({ callId: call.id, resolution: resolvedBy(observation, now, call.resolutionRule) });
  }
  return ledger.store.resolve(resolutions);
}

/**
 * One sweep of the ledger for the clock's `now` over the dataset as it stood that day: each model's
 * call for its current period recorded once, then every due call resolved. Run when the ledger or
 * the 48-hour call is served; a scheduler may call it too (each write is idempotent).
 */
export async function sweepLedger(ledger: Ledger, dataset: IntelligenceDataset, now: Date): Promise<SweepResult> {
  const dated = { ...dataset, series: seriesAsOf(dataset.series, dayOf(now)) };
  const recorded = await recordCalls(ledger, dated, now);
  const resolved = await resolveDueCalls(ledger, dated, now);
  return { recorded, resolved };
}
