import { readFileSync } from 'node:fs';
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentQuoteUses, payments } from '../drizzle/schema.js';
import type { DatabaseHandle } from '../platform/db.js';
import { testDatabases } from './helpers.js';

// Migration 0021's backfill (decision 0046): every quote a payment already holds, given in its
// request or recorded at its settling, goes to payment_quote_uses for the earliest such payment.
// The statement is run again, as written in the migration (it may run over rows it filled before:
// ON CONFLICT DO NOTHING), over rows made for it.

const MIGRATION = new URL('../drizzle/migrations/0021_payment_quote_uses.sql', import.meta.url);
const backfill = readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint').at(-1)!;
const run = `${process.pid}-${Date.now().toString(36)}`;
const quote = (name: string) => `srq-backfill-${run}-${name}`;

function paymentRow(id: string, day: number, quoteIdGiven: string | null, quoteIdRecorded: string | null) {
  const at = new Date(Date.UTC(2026, 0, day));
  const railPaymentId = `pay_backfill_${run}_${id}`;
  return {
    railPaymentId,
    tmsReference: railPaymentId,
    requestSha256: 'x',
    request: quoteIdGiven ? { quoteId: quoteIdGiven } : {},
    status: 'FAILED' as const,
    result: {},
    quoteId: quoteIdRecorded,
    submittedAt: at,
    createdAt: at,
    updatedAt: at,
  };
}

describe.each(testDatabases())('migration 0021 fills payment_quote_uses on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  it('from the quotes given and recorded, the earliest payment keeping each; payments without a quote add nothing', async () => {
    const rows = [
      paymentRow('reused-first', 1, quote('reused'), quote('reused')),
      paymentRow('reused-second', 2, quote('reused'), quote('reused')),
      paymentRow('given-only', 3, quote('given'), null), // BLOCKED or FAILED before its settling: no quote_id
      paymentRow('recorded-only', 4, null, quote('recorded')), // a quote the flow asked for
      paymentRow('none', 5, null, null),
    ];
    await handle.db.insert(payments).values(rows);
    const ours = [quote('reused'), quote('given'), quote('recorded')];
    await handle.db.delete(paymentQuoteUses).where(inArray(paymentQuoteUses.quoteId, ours));
    await handle.db.execute(sql.raw(backfill));
    const filled = await handle.db.select({ quoteId: paymentQuoteUses.quoteId, railPaymentId: paymentQuoteUses.railPaymentId }).from(paymentQuoteUses).where(inArray(paymentQuoteUses.quoteId, ours));
    expect(filled.sort((a, b) => a.quoteId.localeCompare(b.quoteId))).toEqual([
      { quoteId: quote('given'), railPaymentId: rows[2]!.railPaymentId },
      { quoteId: quote('recorded'), railPaymentId: rows[3]!.railPaymentId },
      { quoteId: quote('reused'), railPaymentId: rows[0]!.railPaymentId },
    ]);
  });
});
