import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import { createRuleBasedSynthesiser } from '../../platform/synthesis.js';
import { SNAPSHOT_AS_OF, snapshotSource } from './data-source.js';
import type { CommoditySymbol } from './domain/index.js';
import { createForecastService } from './service.js';

const DAY_MS = 86_400_000;
const POSITIONS = (['WHEAT', 'CORN', 'COFFEE'] as CommoditySymbol[]).map((symbol, index) => ({ symbol, notionalUsd: 100_000 * (index + 1) }));

function serviceAt(clock: ManualClock) {
  return createForecastService({ clock, synthesiser: createRuleBasedSynthesiser(clock), source: snapshotSource });
}

async function answers(service: ReturnType<typeof serviceAt>) {
  return { heatCheck: await service.heatCheck(), outlook: await service.commodityOutlook('WHEAT'), portfolio: await service.portfolio({ positions: POSITIONS }) };
}

/**
 * The instants where an age turns: a millisecond either side of midnight UTC (the inputs' ages)
 * and of the heat check's asOf plus whole days (its dataAgeDays), some days and years after the
 * snapshot, visited forwards and then backwards.
 */
function boundaryInstants(asOfMs: number): number[] {
  const instants: number[] = [];
  for (const daysLater of [0, 1, 2, 400, 800]) {
    const midnight = Math.floor(asOfMs / DAY_MS) * DAY_MS + (daysLater + 1) * DAY_MS;
    const turn = asOfMs + daysLater * DAY_MS;
    instants.push(midnight - 1, midnight, turn - 1, turn, turn + 1);
  }
  const forwards = [...instants].sort((a, b) => a - b);
  return [...forwards, ...forwards.reverse()];
}

describe('the forecast answers kept between requests (decision 0094)', () => {
  it('are at every instant what a service with nothing kept answers, across midnight UTC and each whole day of age', async () => {
    const clock = new ManualClock(SNAPSHOT_AS_OF);
    const kept = serviceAt(clock);
    const asOfMs = Date.parse((await kept.heatCheck()).asOf);
    for (const instant of boundaryInstants(asOfMs)) {
      clock.set(new Date(instant));
      const fresh = serviceAt(new ManualClock(new Date(instant)));
      // Twice each: the second answer comes from what the first kept.
      expect(await answers(kept), new Date(instant).toISOString()).toEqual(await answers(fresh));
      expect(await answers(kept), new Date(instant).toISOString()).toEqual(await answers(fresh));
    }
  });
});
