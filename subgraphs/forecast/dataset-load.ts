// What a data source hands the service: one dataset as loaded, named by its version when it has one.

import type { Clock } from '../../platform/clock.js';
import type { ForecastDataset } from './domain/index.js';
import type { DataQuality } from './domain/index.js';

/** Names one dataset as loaded: the snapshot, or one live refresh. */
export type DatasetVersion = string;

interface DatasetLoad {
  dataset: ForecastDataset;
  dataQuality: DataQuality;
}

/**
 * Loads of the same version hold the same dataset, quality and evaluation instant, so whatever is
 * computed from one serves every request on that version (decision 0104).
 */
export interface VersionedLoad extends DatasetLoad {
  version: DatasetVersion;
  /** The instant the model is evaluated at: the snapshot's own date, or the live refresh's. */
  evaluatedAt: Date;
}

/** Data that may differ between loads: evaluated now unless stated, and computed afresh each time. */
export interface UnversionedLoad extends DatasetLoad {
  version?: undefined;
  evaluatedAt?: Date;
}

export type LoadedDataset = VersionedLoad | UnversionedLoad;

/** Where the forecast's inputs come from: the shipped snapshot, or live sources over it. */
export interface ForecastDataSource {
  /** Throws AppError FCT_ERR_UPSTREAM_UNAVAILABLE when live data is required and cannot be had. */
  load(clock: Clock): Promise<LoadedDataset>;
}
