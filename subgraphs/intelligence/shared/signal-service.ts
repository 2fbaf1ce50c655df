import { type Access, paidWork, setHeaders } from '../../../platform/access/admission.js';
import type { Clock } from '../../../platform/clock.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { seriesAsOf } from '../domain/index.js';
import type { AnswerCache } from './answer-cache.js';
import { catalogEntry } from './catalog.js';
import { type KeptSignal, keptSignal, type ServedSignal } from './envelope.js';
import type { IntelligenceDataset, SignalEndpoint } from './signal-endpoint.js';

/** Where the current dataset comes from: the shipped snapshot, or live adapters over it. */
export interface DatasetSource {
  current(): Promise<IntelligenceDataset>;
}

export interface SignalServiceDeps {
  clock: Clock;
  access: Access;
  cache: AnswerCache;
  dataset: DatasetSource;
}

/**
 * The paid signals (Document 3 §4): admitted through platform/access (x402 or X-API-Key), served
 * from the answer cache for the endpoint's catalog time (shared by REST, GraphQL and every replica
 * on one database), with X-Rail-Cache-Hit, X-Rail-Generated and the endpoint's own headers.
 */
export function createSignalService(deps: SignalServiceDeps) {
  // The dataset as it stood on the clock's day, kept while the day and the dataset are the same.
  let dated: { source: IntelligenceDataset; day: string; dataset: IntelligenceDataset } | undefined;
  function datasetOn(source: IntelligenceDataset, day: string): IntelligenceDataset {
    if (dated?.source !== source || dated.day !== day) dated = { source, day, dataset: { ...source, series: seriesAsOf(source.series, day) } };
    return dated.dataset;
  }

  async function compute<Params, Body extends object>(endpoint: SignalEndpoint<Params, Body>, params: Params): Promise<KeptSignal<Body>> {
    const now = deps.clock.now();
    const answer = await endpoint.compute({ dataset: datasetOn(await deps.dataset.current(), now.toISOString().slice(0, 10)), now, params });
    return keptSignal(answer, now);
  }

  /** The answer of `endpoint` for `params` from the cache (or computed on a miss), with no admission: for views that admitted their caller already. */
  async function serve<Params, Body extends object>(endpoint: SignalEndpoint<Params, Body>, params: Params): Promise<ServedSignal<Body>> {
    const entry = catalogEntry(endpoint.id, endpoint.summary);
    const served =
      entry.cacheMs === null
        ? { value: await compute(endpoint, params), generatedAt: deps.clock.now(), cacheHit: false }
        : await deps.cache.answer(`signal:${endpoint.cacheKey ? endpoint.cacheKey(params) : endpoint.id}`, entry.cacheMs, () => compute(endpoint, params));
    return { ...served.value, generatedAt: served.generatedAt.toISOString(), cacheHit: served.cacheHit };
  }

  return {
    serve,
    /** The answer of `endpoint` for `params`, once the caller is admitted; a payment is settled only when the answer is delivered. */
    async answer<Params, Body extends object>(request: RequestContext, resource: string, endpoint: SignalEndpoint<Params, Body>, params: Params): Promise<ServedSignal<Body>> {
      const entry = catalogEntry(endpoint.id, endpoint.summary);
      const served = await paidWork(deps.access, request, entry.offer, resource, () => serve(endpoint, params));
      setHeaders(request, { 'x-rail-cache-hit': String(served.cacheHit), 'x-rail-generated': served.generatedAt, ...endpoint.headers(served) });
      return served;
    },
  };
}

export type SignalService = ReturnType<typeof createSignalService>;
