import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../platform/clock.js';
import type { DatabaseHandle } from '../../platform/db.js';
import { createHmacSigner } from '../../platform/signing.js';
import { TEST_NOW, TEST_SIGNING_KEY, testDatabases } from '../../test/helpers.js';
import { createFeesService } from './service.js';
import { createFeeStore } from './store.js';

const contracts = { token: null, esgOracle: null, redistribution: null, stabilityPID: null, basketPeg: null };

// One conformance suite, run once per driver (PGlite always; PostgreSQL when DATABASE_URL is set).
describe.each(testDatabases())('fee quote store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  const serviceAt = (clock: ManualClock) =>
    createFeesService({ clock, signer: createHmacSigner(TEST_SIGNING_KEY), store: createFeeStore(handle.db), contracts });

  it('records 100 concurrently issued quotes, each exactly once, and finds them all by id', async () => {
    const clock = new ManualClock(TEST_NOW);
    const service = serviceAt(clock);
    const quotes = await Promise.all(Array.from({ length: 100 }, (_, index) => service.issueQuote({ amountUsd: 1000 + index, hasFx: index % 2 === 0 })));
    const ids = quotes.map((quote) => quote.quoteId);
    expect(new Set(ids).size).toBe(100);
    const found = await service.findQuotes(ids);
    expect(found.size).toBe(100);
    for (const quote of quotes) expect(found.get(quote.quoteId)).toEqual(quote);
  });

  it('treats a retried identical quote (same terms, same instant) as the same record', async () => {
    const clock = new ManualClock('2026-11-22T13:00:00.000Z');
    const service = serviceAt(clock);
    const [first, second] = await Promise.all([service.issueQuote({ amountUsd: 77 }), service.issueQuote({ amountUsd: 77 })]);
    expect(first!.quoteId).toBe(second!.quoteId);
    const found = await service.findQuotes([first!.quoteId]);
    expect(found.size).toBe(1);
  });

  it('returns nothing for ids it never issued', async () => {
    const service = serviceAt(new ManualClock(TEST_NOW));
    expect((await service.findQuotes(['srq-1-000000000000000000000000'])).size).toBe(0);
    expect((await service.findQuotes([])).size).toBe(0);
  });

  it('reports a closed database as an infrastructure failure, not a driver error', async () => {
    const spare = await testDatabase.open();
    const store = createFeeStore(spare.db);
    await testDatabase.dispose(spare);
    await expect(store.findQuotes(['srq-1-000000000000000000000000'])).rejects.toMatchObject({ name: 'InfrastructureError' });
  });
});
