import { snapshotSeries } from '../data/dataset.js';
import type { DatasetSource } from '../shared/signal-service.js';

/** The dataset the signals compute over: the shipped snapshot (live adapters overlay it when configured). */
export function createDatasetSource(): DatasetSource {
  return { current: async () => ({ series: snapshotSeries() }) };
}
