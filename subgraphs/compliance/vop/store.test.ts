import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../platform/db.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { type ComplianceStore, createComplianceStore, type VopCheckRecord } from './store.js';

// The two statements of every VoP check, prepared once with placeholders: the registration lookup
// and the vop_checks insert round-trip their values (jsonb aliases, numeric score, timestamps, nulls)
// as the history query reads them, on each driver.
describe.each(testDatabases())('VoP statements of the compliance store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let store: ComplianceStore;
  let tokens = 0;

  beforeAll(async () => {
    handle = await testDatabase.open();
    store = createComplianceStore(handle.db, { token: () => `t${(tokens += 1)}` });
  });
  afterAll(async () => testDatabase.dispose(handle));

  const at = (seconds: number) => new Date(Date.parse(TEST_NOW) + seconds * 1000);
  const WALLET = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';

  it('activeRegistration: the registration as registered, by any case of the address; none once deactivated', async () => {
    const registration = {
      walletAddress: WALLET,
      legalName: 'Northwind Trading Limited',
      country: null,
      aliases: ['Northwind', 'NW "Trading"'],
      lei: null,
      leiStatus: null,
      registrationType: 'SELF_DECLARED' as const,
      registeredAt: at(0),
    };
    await store.register(registration, at(0));
    const expected = { ...registration, walletAddress: WALLET.toLowerCase(), active: true, deactivatedAt: null };
    expect(await store.activeRegistration(WALLET)).toEqual(expected);
    expect(await store.activeRegistration(WALLET.toLowerCase())).toEqual(expected);
    expect(await store.activeRegistration('0x0000000000000000000000000000000000000001')).toBeUndefined();
    await store.deactivate(WALLET, at(1));
    expect(await store.activeRegistration(WALLET)).toBeUndefined();
  });

  it('recordCheck: null and fractional scores, a null and a given LEI, read back by history as recorded', async () => {
    const check = (n: number, overrides: Partial<VopCheckRecord>): VopCheckRecord => ({
      requestId: `req-${n}`,
      walletAddress: WALLET,
      submittedName: `Northwind ${n}`,
      submittedLei: null,
      result: 'VERIFIED',
      score: 100,
      resolvedBy: 'LEGAL_NAME_MATCH',
      checkedAt: at(n),
      ...overrides,
    });
    const checks = [
      check(10, { result: 'NOT_REGISTERED', score: null, resolvedBy: 'NOT_REGISTERED' }),
      check(11, { result: 'PROCEED_FLAGGED', score: 66.67 }),
      check(12, { submittedLei: '529900T8BM49AURSDO55', result: 'LEI_MATCH', score: 0.5, resolvedBy: 'LEI_EXACT_MATCH' }),
    ];
    for (const record of checks) await store.recordCheck(record);
    const history = (await store.history([WALLET])).get(WALLET.toLowerCase());
    expect(history).toEqual(checks.map((record) => ({ ...record, walletAddress: WALLET.toLowerCase() })).reverse());
  });

  it('finding (review of decision 0096): a batch retried after it was written skips the rows on file, and the rest are written once', async () => {
    const wallet = '0x00000000000000000000000000000000000000b7';
    const check = (n: number): VopCheckRecord => ({
      requestId: `retried-${n}`,
      walletAddress: wallet,
      submittedName: `Retried ${n}`,
      submittedLei: null,
      result: 'NOT_REGISTERED',
      score: null,
      resolvedBy: 'NOT_REGISTERED',
      checkedAt: at(20 + n),
    });
    await store.recordChecks([check(1)]);
    await store.recordChecks([check(1), check(2)]);
    const history = (await store.history([wallet])).get(wallet) ?? [];
    expect(history.map((record) => record.requestId)).toEqual(['retried-2', 'retried-1']);
  });
});
