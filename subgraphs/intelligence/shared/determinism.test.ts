import { describe, expect, it } from 'vitest';
import { snapshotSeries } from '../data/dataset.js';
import { seriesAsOf } from '../domain/index.js';
import { datasetEndpoints } from '../endpoints.js';
import { keptSignal } from './envelope.js';

// Determinism (issue 23): the same dataset and clock give the same answer, byte for byte; a later
// clock is the only other input, and it moves only what depends on the date (staleness).

const NOW = new Date('2026-11-26T09:00:00.000Z');

describe.each(datasetEndpoints().map((endpoint) => ({ endpoint, id: endpoint.id })))('$id', ({ endpoint }) => {
  // A simulation computes for its example request; the other endpoints take no required parameter.
  const params: unknown = endpoint.params ? endpoint.params.parse(endpoint.example ?? {}) : {};
  it('computes the same answer twice from the same dataset and clock', async () => {
    const compute = async () => JSON.stringify(keptSignal(await endpoint.compute({ dataset: { series: snapshotSeries() }, now: NOW, params }), NOW));
    expect(await compute()).toBe(await compute());
  });

  it('over the dataset as it stood on an earlier day (what the signal service hands it), reads no series observation dated after that day', async () => {
    const series = seriesAsOf(snapshotSeries(), '2026-01-01');
    const answer = await endpoint.compute({ dataset: { series }, now: new Date('2026-01-01T00:00:00.000Z'), params });
    const fromSeries = answer.inputs.filter((input) => snapshotSeries().has(input.id));
    for (const input of fromSeries) expect(input.asOf <= '2026-01-01', `${endpoint.id}: ${input.id} as of ${input.asOf}`).toBe(true);
  });
});
