import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../platform/db.js';
import { testDatabases } from '../../../test/helpers.js';
import { type AnswerStore, createAnswerStore } from './answer-store.js';

const HOUR = 60 * 60 * 1000;
const now = new Date('2026-11-22T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const summaryOf = (value: unknown) => (value as ReturnType<typeof report>).synthesis.summary;

function report(summary: string) {
  return {
    reportType: 'climate',
    period: '2026-11',
    generatedAt: now.toISOString(),
    // Keys in an order jsonb would not keep (it sorts by length, then bytes).
    synthesis: { summary, riskLevel: 'MODERATE', narrative: 'n', keyFindings: [], recommendations: [], dataQuality: 'SNAPSHOT', model: 'rule-based' },
    data: { zeta: 1, alpha: 2, middle: { second: true, first: false } },
    sources: ['a'],
  };
}

describe.each(testDatabases())('the answer store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let store: AnswerStore;
  beforeAll(async () => {
    handle = await testDatabase.open();
    store = createAnswerStore(handle.db);
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it('keeps the first fresh report: a second writer in the window gets the kept one back, not its own', async () => {
    const first = await store.keep('climate:conflict', report('first'), now, later(HOUR));
    const second = await store.keep('climate:conflict', report('second'), later(1000), later(HOUR + 1000));
    expect(summaryOf(first.value)).toBe('first');
    expect(summaryOf(second.value)).toBe('first');
    expect(second.expiresAt).toEqual(later(HOUR));
  });

  it('replaces a report once it has expired', async () => {
    await store.keep('climate:expiry', report('old'), now, later(HOUR));
    const renewed = await store.keep('climate:expiry', report('new'), later(HOUR), later(2 * HOUR));
    expect(summaryOf(renewed.value)).toBe('new');
    expect(summaryOf((await store.fresh('climate:expiry', later(HOUR + 1)))?.value)).toBe('new');
  });

  it('reads a report back with its keys in the order they were written', async () => {
    const written = report('ordered');
    await store.keep('climate:order', written, now, later(HOUR));
    const read = await store.fresh('climate:order', later(1));
    expect(JSON.stringify(read?.value)).toBe(JSON.stringify(written));
  });
});
