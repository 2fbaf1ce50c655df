import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { createLogger } from '../../../platform/log.js';
import { sharedTestDatabase, TEST_NOW } from '../../../test/helpers.js';
import { createVopCheckLog } from './check-log.js';
import { createComplianceStore, type VopCheckRecord } from './store.js';

// The VoP history written behind the answer (decision 0096): a check taken by the log is in the
// table once flushed, a history read flushes first, close() writes what is queued, and a log that
// cannot queue (closed) writes the check before returning.
describe('the VoP check log', () => {
  let handle: DatabaseHandle;
  const clock = new ManualClock(TEST_NOW);
  let checks = 0;
  // Request ids of this run only: the worker's database is shared with other files.
  const run = randomBytes(4).toString('hex');
  beforeAll(async () => {
    handle = await sharedTestDatabase();
  });

  const store = () => createComplianceStore(handle.db, { token: () => `t${(checks += 1)}` });
  const logOver = (target: ReturnType<typeof store>, flushDelayMs = 60_000) =>
    createVopCheckLog({ store: target, flushDelayMs, maxQueued: 100, closeTimeoutMs: 5_000, logger: createLogger({ logLevel: 'silent' }) });
  const check = (wallet: string, n: number): VopCheckRecord => ({
    requestId: `req-${run}-${wallet.slice(-2)}-${n}`,
    walletAddress: wallet,
    submittedName: `Vendor ${n}`,
    submittedLei: null,
    result: 'VERIFIED',
    score: 97.5,
    resolvedBy: 'LEGAL_NAME_MATCH',
    checkedAt: new Date(clock.now().getTime() + n * 1000),
  });
  const stored = async (wallet: string) => (await store().history([wallet])).get(wallet.toLowerCase()) ?? [];

  it('a check is answered before it is written, and is in the table once flushed, as recorded', async () => {
    const wallet = '0x0000000000000000000000000000000000000c01';
    const log = logOver(store());
    await log.record(check(wallet, 1));
    await log.record(check(wallet, 2));
    expect(log.pending).toBe(2);
    expect(await stored(wallet)).toEqual([]);
    await log.flush();
    expect(log.pending).toBe(0);
    expect(await stored(wallet)).toEqual([check(wallet, 2), check(wallet, 1)]);
  });

  it('close() at shutdown writes what is queued', async () => {
    const wallet = '0x0000000000000000000000000000000000000c02';
    const log = logOver(store());
    await log.record(check(wallet, 1));
    await log.close();
    expect(await stored(wallet)).toEqual([check(wallet, 1)]);
  });

  it('a log that cannot queue (closed) writes the check before returning: nothing is dropped', async () => {
    const wallet = '0x0000000000000000000000000000000000000c03';
    const log = logOver(store());
    await log.close();
    await log.record(check(wallet, 1));
    expect(await stored(wallet)).toEqual([check(wallet, 1)]);
  });
});
