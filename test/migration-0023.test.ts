import { readFileSync } from 'node:fs';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, LEGACY_INSTITUTION, payments, SETTLEMENT_AGENT_INSTITUTION } from '../drizzle/schema.js';
import type { DatabaseHandle } from '../platform/db.js';
import { testDatabases } from './helpers.js';

// Migration 0023's backfill (decision 0050), run as written in the migration over rows as the
// generated statements leave them (institution_id added, still null): bearer keys go to the legacy
// institution, the settlement agent's payments to its own, every other payment to the legacy one;
// then the constraints hold. It may run again over rows it filled.

const MIGRATION = new URL('../drizzle/migrations/0023_payment_tenancy.sql', import.meta.url);
const BACKFILL_MARK = '-- Hand-written backfill';
const text = readFileSync(MIGRATION, 'utf8');
const backfill = text
  .slice(text.indexOf(BACKFILL_MARK))
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter((statement) => statement.length > 0);
const run = `${process.pid}-${Date.now().toString(36)}`;

function paymentRow(name: string, tmsReference: string, agentId: string | null) {
  const at = new Date(Date.UTC(2026, 0, 1));
  const railPaymentId = `pay_tenancy_${run}_${name}`;
  return { railPaymentId, tmsReference: `${tmsReference}${run}`, requestSha256: 'x', request: {}, status: 'SETTLED' as const, result: {}, agentId, submittedAt: at, createdAt: at, updatedAt: at };
}

describe.each(testDatabases())('migration 0023 gives existing keys and payments an institution on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it('the backfill as written: bearer keys and plain payments to legacy, agent settlements to the settlement agent, then NOT NULL and the key check', async () => {
    expect(backfill.length).toBeGreaterThanOrEqual(4);
    // 1. The state the generated statements leave: the columns exist, without owners or constraints yet.
    await handle.db.execute(sql`alter table payments alter column institution_id drop not null`);
    await handle.db.execute(sql`alter table api_keys drop constraint api_keys_institution`);
    const rows = [paymentRow('plain', 'TMS-OLD-', null), paymentRow('agent', 'AGT-', 'agt_old'), paymentRow('ap2', 'AP2-', null), paymentRow('hold', 'AGT-HLD-', null)];
    await handle.db.insert(payments).values(rows);
    await handle.db.execute(
      sql`update payments set institution_id = null where rail_payment_id in (${sql.join(
        rows.map((row) => sql`${row.railPaymentId}`),
        sql`, `,
      )})`,
    );
    const keyRow = (id: string, kind: 'api' | 'bearer') => ({
      id: `key_${run}_${id}`,
      kind,
      keyHash: `${run}-${id}`,
      label: id,
      requestsPerMinute: 10,
      createdAt: new Date(),
      revokedAt: null,
      institutionId: null,
    });
    await handle.db.insert(apiKeys).values([keyRow('bearer', 'bearer'), keyRow('api', 'api')]);
    // 2. The backfill, twice (it may run again over rows it filled).
    for (let round = 0; round < 2; round += 1) for (const statement of backfill) await handle.db.execute(sql.raw(statement));
    // 3. Every row has its owner.
    const owners = await handle.db
      .select({ id: payments.railPaymentId, institutionId: payments.institutionId })
      .from(payments)
      .where(
        inArray(
          payments.railPaymentId,
          rows.map((row) => row.railPaymentId),
        ),
      );
    expect(Object.fromEntries(owners.map((row) => [row.id, row.institutionId]))).toEqual({
      [rows[0]!.railPaymentId]: LEGACY_INSTITUTION,
      [rows[1]!.railPaymentId]: SETTLEMENT_AGENT_INSTITUTION,
      [rows[2]!.railPaymentId]: SETTLEMENT_AGENT_INSTITUTION,
      [rows[3]!.railPaymentId]: SETTLEMENT_AGENT_INSTITUTION,
    });
    const keys = await handle.db
      .select({ kind: apiKeys.kind, institutionId: apiKeys.institutionId })
      .from(apiKeys)
      .where(inArray(apiKeys.id, [`key_${run}_bearer`, `key_${run}_api`]));
    expect(keys.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'api', institutionId: null },
      { kind: 'bearer', institutionId: LEGACY_INSTITUTION },
    ]);
    // 4. The constraints are back: no payment without an owner, no bearer key without an institution.
    await expect(handle.db.execute(sql`update payments set institution_id = null where rail_payment_id = ${rows[0]!.railPaymentId}`)).rejects.toThrow();
    await expect(handle.db.execute(sql`update api_keys set institution_id = null where id = ${`key_${run}_bearer`}`)).rejects.toThrow();
    await expect(handle.db.execute(sql`update api_keys set institution_id = ${LEGACY_INSTITUTION} where id = ${`key_${run}_api`}`)).rejects.toThrow();
  });
});
