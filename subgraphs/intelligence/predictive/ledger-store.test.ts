import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../../platform/db.js';
import { testDatabases } from '../../../test/helpers.js';
import { testSeries } from '../market/testing.js';
import { type DraftCall, isoWeekStart, type LedgerModel, type Observation } from './domain/index.js';
import { createLedgerStore, LEDGER_STORE_METHODS } from './ledger-store.js';
import { type Ledger, sweepLedger } from './ledger-sweep.js';

// The ledger on PGlite and on PostgreSQL (DATABASE_URL): two replicas sweeping one database together
// record each call once and resolve it once; no row of either table can be changed or removed.

const TIMING = { settleDays: 3, voidAfterDays: 10 };

/** A model that calls "X will be above 10 on issue day + 7" each ISO week, resolved on series X. */
function weeklyModel(id: string): LedgerModel {
  return {
    id,
    title: id,
    subject: 'x',
    period: 'iso-week',
    horizon: '7 calendar days',
    series: ['X'],
    periodOf: (now) => isoWeekStart(now.toISOString().slice(0, 10)),
    async call(dataset, now, record): Promise<DraftCall> {
      const day = now.toISOString().slice(0, 10);
      const base = dataset.series.get('X')!.asOf;
      const target = new Date(Date.parse(`${day}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
      return {
        model: id,
        subject: 'x',
        period: isoWeekStart(day),
        issuedAt: now.toISOString(),
        resolvesAt: new Date(Date.parse(`${target}T00:00:00Z`) + 86_400_000).toISOString(),
        statement: `X on ${target} will be above 10`,
        probability: 0.8,
        evidence: [{ id: 'X', label: 'X', asOf: base, value: 11 }],
        resolutionRule: { quantity: 'X', series: 'X', comparison: 'ABOVE', threshold: 10, category: null, baseDate: base, targetDate: target, text: 'X above 10' },
        method: `fixed; record ${record.resolved}`,
      };
    },
    async resolve(datasetAtTarget, call): Promise<Observation> {
      const last = datasetAtTarget.series.get('X')!.observations.at(-1)!;
      return { value: last.value, category: null, asOf: last.date, outcome: last.value > call.resolutionRule.threshold! };
    },
  };
}

const dataset = {
  series: new Map([
    [
      'X',
      testSeries('X', [
        ['2026-03-02', 11],
        ['2026-03-09', 9],
        ['2026-03-10', 12],
      ]),
    ],
  ]),
};

describe.each(testDatabases())('the ledger store on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  }, 60_000);
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  /** Two replicas: each its own store and registry, both on the one database. */
  function replicas(models: string[]): [Ledger, Ledger] {
    const ledger = (): Ledger => ({ store: createLedgerStore(handle.db), models: models.map(weeklyModel), timing: TIMING });
    return [ledger(), ledger()];
  }

  it('two replicas sweeping together record each call once, then resolve it once', async () => {
    const [first, second] = replicas(['replica-a', 'replica-b', 'replica-c']);
    const issued = new Date('2026-03-03T10:00:00.000Z');
    const sweeps = await Promise.all([sweepLedger(first, dataset, issued), sweepLedger(second, dataset, issued), sweepLedger(first, dataset, issued)]);
    expect(sweeps.reduce((sum, sweep) => sum + sweep.recorded, 0)).toBe(3);
    const recorded = await first.store.calls({});
    expect(
      recorded
        .filter((call) => call.model.startsWith('replica-'))
        .map((call) => call.id)
        .sort(),
    ).toEqual(['replica-a:x:2026-03-02', 'replica-b:x:2026-03-02', 'replica-c:x:2026-03-02']);

    const due = new Date('2026-03-11T10:00:00.000Z');
    const resolving = await Promise.all([sweepLedger(first, dataset, due), sweepLedger(second, dataset, due)]);
    expect(resolving.reduce((sum, sweep) => sum + sweep.resolved, 0)).toBe(3);
    const resolved = await second.store.calls({ model: 'replica-a', status: 'RESOLVED' });
    // On the data of the target day 2026-03-10: 12, above 10.
    expect(resolved).toMatchObject([{ status: 'RESOLVED', resolution: { outcome: true, observedValue: 12, observedAsOf: '2026-03-10' } }]);
  });

  it('a call due whose series never moved past its base date waits, then is VOID after voidAfterDays', async () => {
    const [ledger] = replicas(['stalled']);
    const frozen = { series: new Map([['X', testSeries('X', [['2026-04-01', 11]])]]) };
    await sweepLedger(ledger, frozen, new Date('2026-04-08T10:00:00.000Z'));
    // resolvesAt 2026-04-16: nine days later it still waits, on the tenth it is VOID.
    expect((await sweepLedger(ledger, frozen, new Date('2026-04-25T10:00:00.000Z'))).resolved).toBe(0);
    expect((await sweepLedger(ledger, frozen, new Date('2026-04-26T00:00:00.000Z'))).resolved).toBe(1);
    expect(await ledger.store.call('stalled:x:2026-04-06')).toMatchObject({ status: 'VOID', resolution: { status: 'VOID', outcome: null } });
  });

  it('is append-only: the store has no way to change a row, and the database refuses UPDATE and DELETE of either table', async () => {
    expect(Object.keys(createLedgerStore(handle.db)).sort()).toEqual([...LEDGER_STORE_METHODS].sort());
    const [ledger] = replicas(['append-only']);
    await sweepLedger(ledger, dataset, new Date('2026-03-03T10:00:00.000Z'));
    await sweepLedger(ledger, dataset, new Date('2026-03-11T10:00:00.000Z'));
    const refusals = [
      sql`update intelligence_ledger_calls set probability = 0.1 where model = 'append-only'`,
      sql`delete from intelligence_ledger_calls where model = 'append-only'`,
      sql`update intelligence_ledger_resolutions set outcome = false where call_id = 'append-only:x:2026-03-02'`,
      sql`delete from intelligence_ledger_resolutions where call_id = 'append-only:x:2026-03-02'`,
    ];
    for (const statement of refusals) await expect(handle.db.execute(statement)).rejects.toThrow(/append-only/);
    expect(await ledger.store.call('append-only:x:2026-03-02')).toMatchObject({ probability: 0.8, resolution: { outcome: true } });
  });

  it('records a resolution only once: a second write for the same call is ignored', async () => {
    const [ledger] = replicas(['once']);
    await sweepLedger(ledger, dataset, new Date('2026-03-03T10:00:00.000Z'));
    const resolution = { status: 'RESOLVED' as const, outcome: false, resolvedAt: '2026-03-12T00:00:00.000Z', observedValue: 1, observedCategory: null, observedAsOf: '2026-03-10', reason: 'test' };
    expect(await ledger.store.resolve([{ callId: 'once:x:2026-03-02', resolution }])).toBe(1);
    expect(await ledger.store.resolve([{ callId: 'once:x:2026-03-02', resolution: { ...resolution, outcome: true } }])).toBe(0);
    expect((await ledger.store.call('once:x:2026-03-02'))?.resolution?.outcome).toBe(false);
  });
});
