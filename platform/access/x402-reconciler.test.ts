import { randomBytes } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Address, Hash, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { x402Payments } from '../../drizzle/schema.js';
import { testDatabases } from '../../test/helpers.js';
import type { DatabaseHandle } from '../db.js';
import { type AuthorizationLookup, type AuthorizationOnChain, createX402Reconciler, LEGACY_VALIDITY_SECONDS, settlingVerdict, validBeforeOf, x402ReconcileDelaysFor } from './x402-reconciler.js';

// The x402 claims a stopped process left (decision 0087): the rules, then one run on each driver.

describe('what a SETTLING claim becomes (EIP-3009: a transfer is mined only in a block before validBefore)', () => {
  it.each([
    // used: settled, whatever the time
    [{ used: true, chainTimeSeconds: 2_000n }, 1_000n, 'settled'],
    [{ used: true, chainTimeSeconds: 500n }, 1_000n, 'settled'],
    // not used, the chain at validBefore (1,000 >= 1,000): no block can take it any more
    [{ used: false, chainTimeSeconds: 1_000n }, 1_000n, 'failed'],
    [{ used: false, chainTimeSeconds: 1_001n }, 1_000n, 'failed'],
    // not used, one second before validBefore: it may still be mined
    [{ used: false, chainTimeSeconds: 999n }, 1_000n, 'wait'],
  ] as const)('%o with validBefore %s: %s', (onChain, validBefore, verdict) => {
    expect(settlingVerdict(onChain, validBefore)).toBe(verdict);
  });

  it('takes validBefore from the row, or a day after the claim for rows claimed before it was kept', () => {
    const claimedAt = new Date('2026-01-01T00:00:00Z');
    expect(validBeforeOf({ validBefore: '1767225660', claimedAt })).toBe(1_767_225_660n);
    // 2026-01-01T00:00:00Z is 1,767,225,600 s; plus 86,400 s.
    expect(validBeforeOf({ validBefore: null, claimedAt })).toBe(1_767_225_600n + LEGACY_VALIDITY_SECONDS);
    expect(LEGACY_VALIDITY_SECONDS).toBe(86_400n);
  });

  it('derives its bounds from the timeouts: claims after twice REQUEST_TIMEOUT_MS, settlements after RECONCILE_AFTER_MS but never under 20 RPC timeouts', () => {
    expect(x402ReconcileDelaysFor({ server: { requestTimeoutMs: 15_000 }, chain: { timeoutMs: 5_000, reconcileAfterMs: 600_000 } })).toEqual({
      releaseClaimedAfterMs: 30_000,
      readSettlingAfterMs: 600_000,
    });
    // A soak: 10 s requests, 2 s RPC, 30 s asked: 20 x 2 s = 40 s wins.
    expect(x402ReconcileDelaysFor({ server: { requestTimeoutMs: 10_000 }, chain: { timeoutMs: 2_000, reconcileAfterMs: 30_000 } })).toEqual({
      releaseClaimedAfterMs: 20_000,
      readSettlingAfterMs: 40_000,
    });
  });
});

const NOW = new Date('2026-11-22T12:00:00Z');
const NOW_SECONDS = BigInt(NOW.getTime() / 1000);
const delays = { releaseClaimedAfterMs: 30_000, readSettlingAfterMs: 600_000 };
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
const FOUND_HASH = `0x${'ab'.repeat(32)}` as Hash;
const RECORDED_HASH = `0x${'cd'.repeat(32)}`;

describe.each(testDatabases())('the x402 reconciler on $driver', (database) => {
  let handle: DatabaseHandle;
  const payer = `0x${randomBytes(20).toString('hex')}`;
  const nonceOf = (label: string) => `0x${Buffer.from(label.padEnd(32, '.')).toString('hex')}`;
  /** What the fake token says, per nonce: used or not; the chain's time is NOW. */
  const used = new Map<string, boolean>();
  const lookup: AuthorizationLookup = {
    state: vi.fn(async (_: Address, nonce: Hex): Promise<AuthorizationOnChain> => ({ used: used.get(nonce) ?? false, chainTimeSeconds: NOW_SECONDS })),
    transactionOf: vi.fn(async () => FOUND_HASH),
  };
  const count = vi.fn();
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const reconcilerOn = (lookupFactory: () => AuthorizationLookup) =>
    createX402Reconciler({ db: handle.db, lookup: lookupFactory, clock: { now: () => NOW }, delays, databaseTimeoutMs: 5_000, logger, count });

  beforeAll(async () => {
    handle = await database.open();
  });
  afterAll(async () => {
    await database.dispose(handle);
  });

  async function claim(label: string, state: 'CLAIMED' | 'SETTLING', claimedAt: Date, extra: { validBefore?: bigint; transaction?: string; used?: boolean } = {}) {
    const nonce = nonceOf(label);
    used.set(nonce, extra.used ?? false);
    await handle.db.insert(x402Payments).values({
      payer,
      nonce,
      resource: 'http://rail.test/reports/report/climate',
      amount: '2000000',
      claimedAt,
      state,
      transaction: extra.transaction ?? null,
      validBefore: extra.validBefore === undefined ? null : extra.validBefore.toString(),
    });
    return nonce;
  }

  async function statesOf(nonces: string[]) {
    const rows = await handle.db.select({ nonce: x402Payments.nonce, state: x402Payments.state, transaction: x402Payments.transaction }).from(x402Payments).where(inArray(x402Payments.nonce, nonces));
    return Object.fromEntries(nonces.map((nonce) => [nonce, rows.find((row) => row.nonce === nonce) ?? 'released']));
  }

  it('with no SETTLING claim to read, releases the stale CLAIMED ones and never reaches for the chain', async () => {
    const stale = await claim('claimed-stale', 'CLAIMED', minutesAgo(1));
    const fresh = await claim('claimed-fresh', 'CLAIMED', new Date(NOW.getTime() - 10_000));
    const noChain = vi.fn(() => lookup);
    const summary = await reconcilerOn(noChain).runOnce();
    expect(summary).toEqual({ released: 1, settled: 0, failed: 0, waiting: 0 });
    expect(noChain).not.toHaveBeenCalled();
    expect(await statesOf([stale, fresh])).toEqual({ [stale]: 'released', [fresh]: { nonce: fresh, state: 'CLAIMED', transaction: null } });
    expect(count).toHaveBeenCalledWith('released');
  });

  it('resolves the stale SETTLING claims from the token, once, and leaves the rest', async () => {
    const settledWithHash = await claim('settled-recorded', 'SETTLING', minutesAgo(11), { used: true, transaction: RECORDED_HASH, validBefore: NOW_SECONDS + 60n });
    const settledFound = await claim('settled-found', 'SETTLING', minutesAgo(12), { used: true, validBefore: NOW_SECONDS - 60n });
    const expired = await claim('expired', 'SETTLING', minutesAgo(13), { validBefore: NOW_SECONDS });
    const stillValid = await claim('still-valid', 'SETTLING', minutesAgo(14), { validBefore: NOW_SECONDS + 1n });
    // Claimed 20 minutes ago with no validBefore: valid for a day after, so not failed yet.
    const legacy = await claim('legacy', 'SETTLING', minutesAgo(20));
    const recent = await claim('recent', 'SETTLING', minutesAgo(9), { used: true, validBefore: NOW_SECONDS - 60n });
    const reconciler = reconcilerOn(() => lookup);

    const summary = await reconciler.runOnce();
    expect(summary).toEqual({ released: 0, settled: 2, failed: 1, waiting: 2 });
    expect(await statesOf([settledWithHash, settledFound, expired, stillValid, legacy, recent])).toEqual({
      [settledWithHash]: { nonce: settledWithHash, state: 'SETTLED', transaction: RECORDED_HASH },
      [settledFound]: { nonce: settledFound, state: 'SETTLED', transaction: FOUND_HASH },
      [expired]: { nonce: expired, state: 'FAILED', transaction: null },
      [stillValid]: { nonce: stillValid, state: 'SETTLING', transaction: null },
      [legacy]: { nonce: legacy, state: 'SETTLING', transaction: null },
      [recent]: { nonce: recent, state: 'SETTLING', transaction: null },
    });
    expect(lookup.transactionOf).toHaveBeenCalledTimes(1);
    expect(count.mock.calls.filter(([outcome]) => outcome !== 'released').map(([outcome]) => outcome)).toEqual(['failed', 'settled', 'settled']); // oldest first

    // A second run changes nothing it resolved; the waiting ones are read again.
    expect(await reconciler.runOnce()).toEqual({ released: 0, settled: 0, failed: 0, waiting: 2 });
  });

  it('a claim another process resolved between the read and the write is not counted again', async () => {
    const raced = await claim('raced', 'SETTLING', minutesAgo(30), { used: true, transaction: RECORDED_HASH });
    const racing: AuthorizationLookup = {
      ...lookup,
      // 1. Another reconciler resolves it while this one reads the chain.
      async state(address, nonce) {
        await handle.db
          .update(x402Payments)
          .set({ state: 'SETTLED' })
          .where(inArray(x402Payments.nonce, [raced]));
        return lookup.state(address, nonce);
      },
    };
    // 2. This one finds it no longer SETTLING: nothing written, nothing counted.
    expect(await reconcilerOn(() => racing).runOnce()).toEqual({ released: 0, settled: 0, failed: 0, waiting: 2 });
  });
});
