import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { testDatabases } from '../../../test/helpers.js';
import { AnswerCache } from './answer-cache.js';
import { createAnswerStore } from './answer-store.js';

const HOUR = 3_600_000;

describe.each(testDatabases())('the answer cache on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  /** Two replicas: each its own process cache, both on the one database. */
  function replicas(clock: ManualClock) {
    const store = createAnswerStore(handle.db);
    return [new AnswerCache(clock, store), new AnswerCache(clock, store)] as const;
  }

  it('computes once for concurrent calls in one process (single flight), the others served that answer as a hit', async () => {
    const clock = new ManualClock('2026-11-26T10:00:00.000Z');
    const [cache] = replicas(clock);
    let computed = 0;
    const generate = async () => ({ answer: ++computed });
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.answer('test:single-flight', HOUR, generate)));
    expect(computed).toBe(1);
    expect(answers.filter((answer) => !answer.cacheHit)).toHaveLength(1);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.value)))).toEqual(new Set([JSON.stringify({ answer: 1 })]));
  });

  it('a second replica does not recompute what the first just computed: it reads the kept answer, with its generation time', async () => {
    const clock = new ManualClock('2026-11-26T11:00:00.000Z');
    const [first, second] = replicas(clock);
    let computed = 0;
    const generate = async () => ({ answer: ++computed });
    const made = await first.answer('test:replicas', HOUR, generate);
    clock.advance(60_000);
    const read = await second.answer('test:replicas', HOUR, generate);
    expect(computed).toBe(1);
    expect(made.cacheHit).toBe(false);
    expect(read).toEqual({ value: { answer: 1 }, generatedAt: made.generatedAt, cacheHit: true });
  });

  it('two replicas missing together keep one answer: the later writer is handed the kept one', async () => {
    const clock = new ManualClock('2026-11-26T12:00:00.000Z');
    const [first, second] = replicas(clock);
    let computed = 0;
    const generate = async () => ({ answer: ++computed });
    const [a, b] = await Promise.all([first.answer('test:race', HOUR, generate), second.answer('test:race', HOUR, generate)]);
    expect(a.value).toEqual(b.value);
    expect(a.generatedAt).toEqual(b.generatedAt);
  });

  it('computes afresh once the time is up, and not a moment before', async () => {
    const clock = new ManualClock('2026-11-26T13:00:00.000Z');
    const [cache] = replicas(clock);
    let computed = 0;
    const generate = async () => ({ answer: ++computed });
    await cache.answer('test:expiry', HOUR, generate);
    clock.advance(HOUR - 1);
    expect((await cache.answer('test:expiry', HOUR, generate)).cacheHit).toBe(true);
    clock.advance(1);
    const renewed = await cache.answer('test:expiry', HOUR, generate);
    expect(renewed).toMatchObject({ value: { answer: 2 }, cacheHit: false });
    expect(renewed.generatedAt).toEqual(clock.now());
  });
});
