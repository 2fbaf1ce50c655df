import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../../drizzle/schema.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { testDatabases } from '../../../test/helpers.js';
import { samplePaymentResult } from '../callbacks/testing.js';
import { createPaymentGraphStore, type PaymentGraphStore } from './graph-store.js';

// The graph's batch reads of payments on each driver (issue 21 finding 8: the lists always failed
// on PostgreSQL, whose driver answers a raw statement with the rows themselves), and each read
// holding only the owner's payments (decision 0050).

const run = `${process.pid}-${Date.now().toString(36)}`;
const T0 = new Date('2026-11-25T03:00:00.000Z');
const wallet = () => `0x${randomBytes(20).toString('hex')}`;
const OURS = `inst_graph_ours_${run}`;
const THEIRS = `inst_graph_theirs_${run}`;

interface Row {
  institutionId: string;
  railPaymentId: string;
  creditorWallet: string;
  debtorWallet: string;
  creditorLei?: string;
  agentId?: string;
  /** Seconds after T0. */
  at: number;
}

function rowOf(row: Row) {
  const submittedAt = new Date(T0.getTime() + row.at * 1000);
  const request = {
    tmsReference: `TMS-${row.railPaymentId}`,
    amount: '10',
    currency: 'USD',
    settlementAsset: 'USDC',
    creditor: { name: 'Creditor', walletAddress: row.creditorWallet, ...(row.creditorLei ? { lei: row.creditorLei } : {}) },
    debtor: { name: 'Debtor', walletAddress: row.debtorWallet },
  };
  return {
    railPaymentId: row.railPaymentId,
    institutionId: row.institutionId,
    tmsReference: request.tmsReference,
    requestSha256: 'x',
    request,
    status: 'SETTLED' as const,
    result: { ...samplePaymentResult(row.railPaymentId), tmsReference: request.tmsReference },
    agentId: row.agentId ?? null,
    submittedAt,
    createdAt: submittedAt,
    updatedAt: submittedAt,
  };
}

describe.each(testDatabases())('the payments graph store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  let store: PaymentGraphStore;
  const creditor = wallet();
  const lei = `5299${randomBytes(8).toString('hex').toUpperCase()}`;
  const agentId = `agt_graph_${run}`;
  const id = (name: string) => `pay_graph_${run}_${testDatabase.driver}_${name}`;
  const rows: Row[] = [
    { institutionId: OURS, railPaymentId: id('ours-old'), creditorWallet: creditor, debtorWallet: wallet(), creditorLei: lei, agentId, at: 1 },
    { institutionId: OURS, railPaymentId: id('ours-new'), creditorWallet: wallet(), debtorWallet: creditor, at: 3 },
    { institutionId: THEIRS, railPaymentId: id('theirs'), creditorWallet: creditor, debtorWallet: wallet(), creditorLei: lei, agentId, at: 2 },
  ];
  beforeAll(async () => {
    handle = await testDatabase.open();
    store = createPaymentGraphStore(handle.db);
    await handle.db.insert(payments).values(rows.map(rowOf));
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  const listed = (found: Map<string, Array<{ railPaymentId: string }>>, key: string) => found.get(key)?.map((payment) => payment.railPaymentId);

  it.each([
    ['wallet', creditor.toLowerCase(), [id('ours-new'), id('ours-old')], [id('ours-new'), id('theirs'), id('ours-old')]],
    ['lei', lei, [id('ours-old')], [id('theirs'), id('ours-old')]],
    ['agent', agentId, [id('ours-old')], [id('theirs'), id('ours-old')]],
  ] as const)("byParty(%s): the owner's payments newest first; every owner's for the admin (null)", async (kind, key, ours, all) => {
    const [owned, everyone, unknown] = await Promise.all([store.byParty(kind, [key, 'absent'], OURS), store.byParty(kind, [key], null), store.byParty(kind, [key], `inst_nobody_${run}`)]);
    expect(listed(owned, key)).toEqual(ours);
    expect(owned.has('absent')).toBe(false);
    expect(listed(everyone, key)).toEqual(all);
    expect(unknown.size).toBe(0);
  });

  it("byParty reads each payment's result, request and agent as stored", async () => {
    const [payment] = (await store.byParty('lei', [lei], THEIRS)).get(lei)!;
    const stored = rowOf(rows[2]!);
    expect(payment).toEqual({ railPaymentId: stored.railPaymentId, result: stored.result, request: stored.request, agentId, fundingIssuer: null });
  });

  it("byIds: the owner's payments among the ids; every one for the admin", async () => {
    const ids = [id('ours-old'), id('theirs'), id('missing')];
    expect([...(await store.byIds(ids, OURS)).keys()]).toEqual([id('ours-old')]);
    expect([...(await store.byIds(ids, null)).keys()].sort()).toEqual([id('ours-old'), id('theirs')].sort());
  });
});
