// Public face of the forecast live sources: what the subgraph's wiring and HTTP layer import.

export { type FeedId as LiveSourceId, type SourceFailureKind, SourceUnavailableError } from '../../../platform/sources/index.js';
export {
  type ClimatologyCache,
  DEFAULT_CONCURRENCY,
  hasLiveClimate,
  hasLiveValue,
  type LiveClimate,
  type LiveClimateObservation,
  type LiveFailure,
  type LiveLoadExtras,
  loadLiveClimate,
} from './live-dataset.js';
export { mergeWithSnapshot } from './merge-snapshot.js';
export {
  type Bbox,
  DEFAULT_LIVE_BASE_URLS,
  type GeoPoint,
  LIVE_SOURCE_RETRY_AFTER_SECONDS,
  type LiveRegionSpec,
  type LiveSourceBaseUrls,
  type LiveSourceOptions,
  MAX_POINTS_PER_REGION,
} from './options.js';
