// Public face of the forecast live sources: what the subgraph's wiring and HTTP layer import.

export {
  DEFAULT_CONCURRENCY, hasLiveClimate, hasLiveValue, loadLiveClimate,
  type ClimatologyCache, type LiveClimate, type LiveClimateObservation, type LiveFailure, type LiveLoadExtras,
} from './live-dataset.js';
export { mergeWithSnapshot } from './merge-snapshot.js';
export {
  DEFAULT_LIVE_BASE_URLS, LIVE_SOURCE_RETRY_AFTER_SECONDS, MAX_POINTS_PER_REGION,
  type Bbox, type GeoPoint, type LiveRegionSpec, type LiveSourceBaseUrls, type LiveSourceOptions,
} from './options.js';
export {
  SourceUnavailableError, type FeedId as LiveSourceId, type SourceFailureKind,
} from '../../../platform/sources/index.js';
