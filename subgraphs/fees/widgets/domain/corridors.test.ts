import { describe, expect, it } from 'vitest';
import parameters from '../../data/corridor-parameters.json' with { type: 'json' };
import { corridorStates } from './corridors.js';

/** 64 daily rates alternating by ±step around 1, ending at `last` (a move of last - 1). */
function series(step: number, last = 1) {
  const observations = Array.from({ length: 64 }, (_, index) => ({ date: `2026-01-${String(index + 1).padStart(2, '0')}`, rate: 1 + (index % 2 === 0 ? 0 : step) }));
  observations[63] = { ...observations[63]!, rate: last };
  return observations;
}

describe('corridorStates', () => {
  it('OPTIMAL when calm, ADVERSE at the volatility or move bound, CAUTION between', () => {
    const [calm, volatile, moved, between] = corridorStates(
      [
        { currency: 'AAA', observations: series(0.0001) },
        { currency: 'BBB', observations: series(0.02) },
        { currency: 'CCC', observations: series(0.0001, 1.09) },
        { currency: 'DDD', observations: series(0.0001, 1.05) },
      ],
      null,
      parameters,
    );
    expect(calm).toMatchObject({ corridor: 'USD/AAA', state: 'OPTIMAL' });
    expect(volatile!.state).toBe('ADVERSE');
    expect(moved).toMatchObject({ state: 'ADVERSE', movePct: 9 });
    expect(between).toMatchObject({ state: 'CAUTION', movePct: 5 });
  });

  it('an unstable or caution oracle band turns OPTIMAL into CAUTION, and too short a series is CAUTION', () => {
    const calm = [{ currency: 'AAA', observations: series(0.0001) }];
    expect(corridorStates(calm, 'caution', parameters)[0]!.state).toBe('CAUTION');
    expect(corridorStates(calm, 'unstable', parameters)[0]!.reason).toContain('unstable');
    expect(corridorStates([{ currency: 'EEE', observations: series(0.0001).slice(0, 10) }], 'stable', parameters)[0]).toMatchObject({ state: 'CAUTION', volatilityPct: null });
  });
});
