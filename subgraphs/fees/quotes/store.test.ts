import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { count, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../../drizzle/schema.js';
import { feeQuotes } from '../../../drizzle/schema.js';
import { ManualClock } from '../../../platform/clock.js';
import type { Database, DatabaseHandle } from '../../../platform/db.js';
import { InfrastructureError } from '../../../platform/errors.js';
import { createHmacSigner } from '../../../platform/signing.js';
import { TEST_NOW, TEST_SIGNING_KEY, testDatabases } from '../../../test/helpers.js';
import type { Quote } from './domain/index.js';
import { createFeesService } from './service.js';
import { createFeeStore } from './store.js';

const contracts = { token: null, esgOracle: null, redistribution: null, stabilityPID: null, basketPeg: null };
const signer = createHmacSigner(TEST_SIGNING_KEY);

/** A database whose next `stuckWrites` execute() calls never answer (the SQL is never sent); later calls and selects reach it. */
function withStuckWrites(db: Database, stuckWrites: number): Database {
  let remaining = stuckWrites;
  return new Proxy(db, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function') return value;
      if (property !== 'execute') return value.bind(object);
      return (...args: unknown[]) => {
        if (remaining <= 0) return value.apply(object, args);
        remaining -= 1;
        return new Promise<never>(() => {});
      };
    },
  });
}

// One conformance suite, run once per driver (PGlite always; PostgreSQL when DATABASE_URL is set).
describe.each(testDatabases())('fee quote store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  const serviceAt = (clock: ManualClock, store = createFeeStore(handle.db)) => {
    const issued: Quote[] = [];
    const service = createFeesService({ clock, signer, store, ledger: { record: (quote) => void issued.push(quote) }, contracts });
    return { service, store, issued };
  };

  it('records 100 issued quotes in one batch, each exactly once, and finds them all by id', async () => {
    const { service, store, issued } = serviceAt(new ManualClock(TEST_NOW));
    const quotes = Array.from({ length: 100 }, (_, index) => service.issueQuote({ amountUsd: 1000 + index, hasFx: index % 2 === 0 }));
    await store.insertQuotes(issued);
    await store.insertQuotes(issued.slice(0, 10)); // a retried batch: rows already on file are skipped
    const ids = quotes.map((quote) => quote.quoteId);
    expect(new Set(ids).size).toBe(100);
    const found = await service.findQuotes(ids);
    expect(found.size).toBe(100);
    for (const quote of quotes) expect(found.get(quote.quoteId)).toEqual(quote);
    // The columns are read from the body by the database: they agree with it.
    const sample = quotes[1]!;
    const [row] = await handle.db.select().from(feeQuotes).where(eq(feeQuotes.quoteId, sample.quoteId));
    expect(row).toMatchObject({
      issuedAt: new Date(sample.oracleContext.issuedAt),
      expiresAt: new Date(sample.oracleContext.expiresAt),
      amountUsd: '1001.000000',
      hasFx: false,
      volumeTier: sample.volumeTier,
      totalUsd: Number(sample.fees.total.usd).toFixed(6),
      netUsd: Number(sample.settlement.netUsd).toFixed(6),
    });
    expect(Number(row?.totalBps)).toBe(sample.fees.total.bps);
    expect(Number(row?.esgScore)).toBe(sample.input.esgScore);
  });

  it('finding: 50 identical quote requests (same terms, same instant) get 50 distinct quoteIds and 50 stored rows', async () => {
    const instant = '2026-11-22T13:00:00.000Z';
    const { service, store, issued } = serviceAt(new ManualClock(instant));
    const quotes = Array.from({ length: 50 }, () => service.issueQuote({ amountUsd: 77 }));
    await store.insertQuotes(issued);
    const ids = quotes.map((quote) => quote.quoteId);
    expect(new Set(ids).size).toBe(50);
    for (const id of ids) expect(id).toMatch(new RegExp(`^srq-${new Date(instant).getTime()}-[0-9a-f]{40}$`));
    const [stored] = await handle.db
      .select({ rows: count() })
      .from(feeQuotes)
      .where(eq(feeQuotes.issuedAt, new Date(instant)));
    expect(stored?.rows).toBe(50);
    expect((await service.findQuotes(ids)).size).toBe(50);
  });

  it('returns nothing for ids it never issued', async () => {
    const { service } = serviceAt(new ManualClock(TEST_NOW));
    expect((await service.findQuotes(['srq-1-000000000000000000000000'])).size).toBe(0);
    expect((await service.findQuotes([])).size).toBe(0);
  });

  it('reports a closed database as an infrastructure failure, not a driver error', async () => {
    const spare = await testDatabase.open();
    const store = createFeeStore(spare.db);
    await testDatabase.dispose(spare);
    await expect(store.findQuotes(['srq-1-000000000000000000000000'])).rejects.toMatchObject({ name: 'InfrastructureError' });
  });

  it('finding: a stuck write fails after timeoutMs with InfrastructureError and does not block the next write', { timeout: 15_000 }, async () => {
    const { service, issued } = serviceAt(new ManualClock('2026-11-22T14:00:00.000Z'));
    const store = createFeeStore(withStuckWrites(handle.db, 1), { timeoutMs: 250 });
    const [first, second] = [service.issueQuote({ amountUsd: 31 }), service.issueQuote({ amountUsd: 32 })];
    // 1. The first INSERT never answers: its caller is refused, not left waiting.
    const stuck = await store.insertQuotes([issued[0]!]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(stuck).toBeInstanceOf(InfrastructureError);
    expect((stuck as Error).message).toBe('insert into fee_quotes (1 rows) (no answer within 250 ms) failed');
    // 2. The next write does not wait behind the stuck one and commits.
    await store.insertQuotes([issued[1]!]);
    const found = await service.findQuotes([first.quoteId, second.quoteId]);
    expect([...found.keys()]).toEqual([second.quoteId]);
  });

  it('wraps a refused write without its SQL text or parameters, keeping the driver error as cause', async () => {
    const { service, store } = serviceAt(new ManualClock('2026-11-22T15:00:00.000Z'));
    const quote = service.issueQuote({ amountUsd: 12 });
    // numeric(20, 6) holds 14 integer digits: 10^16 overflows, a failure the driver reports with the whole query.
    const overflowing = { ...quote, quoteId: `${quote.quoteId.slice(0, -1)}0`, input: { ...quote.input, amountUsd: 1e16 } };
    const error = await store.insertQuotes([overflowing]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toBe('insert into fee_quotes (1 rows) failed');
    expect(String((error as Error).cause)).toMatch(/insert into "fee_quotes"/i);
  });
});

describe('group commit on PGlite with a counting drizzle logger', () => {
  let client: PGlite;
  let db: Database;
  const statements: string[] = [];
  beforeAll(async () => {
    client = new PGlite();
    const logged = drizzle({ client, schema, logger: { logQuery: (query) => void statements.push(query) } });
    await migrate(logged, { migrationsFolder: fileURLToPath(new URL('../../../drizzle/migrations', import.meta.url)) });
    db = logged as unknown as Database;
  });
  afterAll(async () => {
    await client.close();
  });

  it('finding: the quote batch write ran its INSERT twice; one batch now sends exactly one INSERT', async () => {
    const store = createFeeStore(db);
    const issued: Quote[] = [];
    const service = createFeesService({ clock: new ManualClock(TEST_NOW), signer, store, ledger: { record: (quote) => void issued.push(quote) }, contracts });
    const quotes = [1, 2, 3].map((amountUsd) => service.issueQuote({ amountUsd }));
    statements.length = 0;
    await store.insertQuotes(issued);
    const inserts = statements.filter((statement) => /^\s*insert\b/i.test(statement));
    expect(inserts).toHaveLength(1);
    // The three quotes went in that one statement, as its one parameter.
    expect(inserts[0]!.match(/\$\d+/g)).toEqual(['$1']);
    expect((await service.findQuotes(quotes.map((quote) => quote.quoteId))).size).toBe(3);
  });
});
