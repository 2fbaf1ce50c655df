import { describe, expect, it } from 'vitest';
import * as feesDomain from '../subgraphs/fees/domain/index.js';
import * as forecastDomain from '../subgraphs/forecast/domain/index.js';

describe('domain barrels', () => {
  it('no two domain barrels export the same name', () => {
    const barrels = { fees: Object.keys(feesDomain), forecast: Object.keys(forecastDomain) };
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const [barrel, names] of Object.entries(barrels)) {
      for (const name of names) {
        const owner = seen.get(name);
        if (owner) clashes.push(`${name} (${owner}, ${barrel})`);
        seen.set(name, barrel);
      }
    }
    expect(clashes).toEqual([]);
  });
});
