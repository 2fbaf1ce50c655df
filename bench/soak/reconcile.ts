import { authorizationKey } from './chain.js';
import type { Check, ReconcileInput } from './checks.js';
import type { DatabaseReader, DatabaseView } from './database-view.js';
import { checkCallbacks } from './reconcile-callbacks.js';
import { acknowledgements } from './records.js';
import { overlapsFault } from './timeline.js';

/** Whether what the reconcilers and the callback workers still have to do is done: no PENDING payment, SETTLING claim or PENDING callback. */
function settled(view: DatabaseView): boolean {
  return !view.payments.some((row) => row.status === 'PENDING') && !view.x402.some((row) => row.state === 'SETTLING') && !view.callbacks.some((row) => row.state === 'PENDING');
}

/** Reads the database until it has settled or `waitMs` ran out (the checks then name what stayed open). */
export async function waitUntilSettled(reader: DatabaseReader, institutionId: string, waitMs: number, log: (line: string) => void): Promise<DatabaseView> {
  const deadline = Date.now() + waitMs;
  let lastLog = 0;
  for (;;) {
    const view = await reader.read(institutionId);
    if (settled(view) || Date.now() >= deadline) return view;
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      const open = [
        view.payments.filter((row) => row.status === 'PENDING').length,
        view.x402.filter((row) => row.state === 'SETTLING').length,
        view.callbacks.filter((row) => row.state === 'PENDING').length,
      ];
      log(`waiting for the reconcilers: ${open[0]} payments PENDING, ${open[1]} x402 claims SETTLING, ${open[2]} callbacks PENDING`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

function checkAcknowledged(input: ReconcileInput): Check {
  const check: Check = { name: 'every payment acknowledged to a client exists once, as acknowledged', problems: [], notes: [] };
  const rowsByReference = Map.groupBy(input.database.payments, (row) => row.tmsReference);
  let acknowledged = 0;
  for (const entry of input.payments) {
    const rows = rowsByReference.get(entry.tmsReference) ?? [];
    if (rows.length > 1) check.problems.push(`${entry.tmsReference}: ${rows.length} payment rows`);
    const acks = acknowledgements(entry);
    if (acks.length === 0) continue;
    acknowledged += 1;
    const row = rows[0];
    if (!row) {
      check.problems.push(`${entry.tmsReference}: acknowledged as ${acks[0]!.railPaymentId} (${acks[0]!.status}) but no payment row`);
      continue;
    }
    for (const ack of acks) {
      if (ack.railPaymentId !== row.railPaymentId) check.problems.push(`${entry.tmsReference}: acknowledged as ${ack.railPaymentId}, stored as ${row.railPaymentId}`);
      if (ack.status !== 'PENDING' && ack.status !== row.status) check.problems.push(`${entry.tmsReference}: acknowledged ${ack.status}, stored ${row.status}`);
    }
  }
  const unknown = input.database.payments.filter((row) => !input.payments.some((entry) => entry.tmsReference === row.tmsReference));
  for (const row of unknown) check.problems.push(`${row.railPaymentId}: a payment no client of the soak asked for (${row.tmsReference})`);
  check.notes.push(`${input.payments.length} payments asked for, ${acknowledged} acknowledged, ${input.database.payments.length} stored`);
  return check;
}

function checkFinal(input: ReconcileInput): Check {
  const pending = input.database.payments.filter((row) => row.status !== 'SETTLED' && row.status !== 'FAILED' && row.status !== 'BLOCKED');
  const counts = Object.entries(Object.groupBy(input.database.payments, (row) => row.status)).map(([status, rows]) => `${rows?.length ?? 0} ${status}`);
  return { name: 'every stored payment reached a final status', problems: pending.map((row) => `${row.railPaymentId} (${row.tmsReference}) is still ${row.status}`), notes: [counts.join(', ')] };
}

const usdcUnits = (amount: string) => BigInt(Math.round(Number(amount) * 1_000_000));

function checkOnChain(input: ReconcileInput): Check {
  const check: Check = { name: 'a SETTLED payment is settled once on chain, a FAILED or BLOCKED one never; no quote serves two payments', problems: [], notes: [] };
  const byQuote = Map.groupBy(
    input.database.payments.filter((row) => row.givenQuoteId !== null),
    (row) => row.givenQuoteId!,
  );
  for (const [quoteId, rows] of byQuote) if (rows.length > 1) check.problems.push(`quote ${quoteId} is the quote of ${rows.length} payments: ${rows.map((row) => row.railPaymentId).join(', ')}`);
  for (const row of input.database.payments) {
    const quoteId = row.quoteId ?? row.givenQuoteId;
    const events = quoteId ? (input.chain.settlements.get(quoteId) ?? []) : [];
    if (row.status === 'SETTLED') {
      if (events.length !== 1) check.problems.push(`${row.railPaymentId} is SETTLED with ${events.length} Settled events for its quote ${quoteId}`);
      const [event] = events;
      if (event && event.txHash.toLowerCase() !== row.txHash?.toLowerCase()) check.problems.push(`${row.railPaymentId}: stored transaction ${row.txHash}, settled in ${event.txHash}`);
      if (event && (event.amount !== usdcUnits(row.amount) || event.payee.toLowerCase() !== row.creditor.toLowerCase()))
        check.problems.push(`${row.railPaymentId}: settled ${event.amount} to ${event.payee}, asked ${row.amount} USD to ${row.creditor}`);
    } else if (row.status !== 'PENDING' && events.length > 0)
      check.problems.push(`${row.railPaymentId} is ${row.status} but its quote ${quoteId} was settled in ${events.map((one) => one.txHash).join(', ')}`);
  }
  const stored = new Set(input.database.payments.map((row) => row.tmsReference));
  for (const entry of input.payments) {
    const events = input.chain.settlements.get(entry.quoteId) ?? [];
    if (!stored.has(entry.tmsReference) && events.length > 0) check.problems.push(`${entry.tmsReference}: no payment row, yet its quote was settled in ${events[0]!.txHash}`);
  }
  const settledCount = input.database.payments.filter((row) => row.status === 'SETTLED').length;
  check.notes.push(`${settledCount} settlements checked against the router's Settled events`);
  return check;
}

/**
 * Every authorization the soak presented (decision 0012's life of a claim): its row and the token
 * agree (SETTLED if and only if used on chain), none is used twice, none is left SETTLING, and a
 * payer is charged only for an answer 200, or when the answer was lost to a kill of the process on
 * its path while it was in flight (the public port sends a REST path straight to the intelligence
 * processes, gateway/cluster/cluster.ts: the one that settled it died before it answered).
 */
function checkX402(input: ReconcileInput): Check {
  const check: Check = { name: 'every x402 payment is charged at most once, and only for an answer it got', problems: [], notes: [] };
  const rows = new Map(input.database.x402.map((row) => [authorizationKey(row.payer, row.nonce), row]));
  let charged = 0;
  let lostToKill = 0;
  for (const entry of input.x402) {
    const key = authorizationKey(entry.payer, entry.nonce);
    const used = input.chain.authorizationsUsed.get(key) ?? 0;
    const row = rows.get(key);
    rows.delete(key);
    if (used > 1) check.problems.push(`${key}: used ${used} times on chain`);
    if (row?.state === 'SETTLING') check.problems.push(`${key}: still SETTLING (unresolved)`);
    else if ((row?.state === 'SETTLED') !== used > 0) check.problems.push(`${key}: row ${row?.state ?? 'absent'}, used on chain ${used} times`);
    if (row && row.amount !== input.price) check.problems.push(`${key}: claimed ${row.amount}, the price is ${input.price}`);
    if (used === 0) {
      if (entry.outcome === 200) check.problems.push(`${key}: answered 200 without being charged`);
      continue;
    }
    charged += 1;
    if (entry.outcome === 200 && entry.settledInAnswer) continue;
    if (overlapsFault(entry.startedAt, entry.endedAt, input.faults, ['intelligence'])) lostToKill += 1;
    else check.problems.push(`${key}: charged, but the client got ${entry.outcome} (no kill on its path while it was in flight)`);
  }
  for (const key of rows.keys()) check.problems.push(`${key}: a claim for an authorization no client of the soak presented`);
  check.notes.push(`${input.x402.length} authorizations presented, ${charged} charged, ${lostToKill} of them with the answer lost to a kill`);
  return check;
}

/** The X-RateLimit-* answers of the soak's API key: within a window no two answers share a place (each request counted once), and the limit is never reached. */
function checkKeyCounts(input: ReconcileInput): Check {
  const check: Check = { name: 'the API key is counted once per request', problems: [], notes: [] };
  const windows = Map.groupBy(input.keyCounts, (count) => Math.round((count.at + count.resetSeconds * 1000) / 60_000));
  for (const [window, counts] of windows) {
    const places = counts.map((count) => count.limit - count.remaining);
    const repeated = places.filter((place, index) => places.indexOf(place) !== index);
    if (repeated.length > 0) check.problems.push(`window ending ${new Date(window * 60_000).toISOString()}: places ${[...new Set(repeated)].join(', ')} given to two answers`);
    if (counts.some((count) => count.remaining <= 0)) check.problems.push(`window ending ${new Date(window * 60_000).toISOString()}: the limit was reached`);
  }
  check.notes.push(`${input.keyCounts.length} counted answers over ${windows.size} windows`);
  return check;
}

function checkFaults(input: ReconcileInput): Check {
  const check: Check = { name: 'every process kind was killed, PostgreSQL and Redis were cut, and each came back', problems: [], notes: [] };
  for (const event of input.faults) if (event.error) check.problems.push(`${event.process ?? event.kind}: ${event.error}`);
  for (const kind of input.kinds) if (!input.faults.some((event) => event.kind === kind && !event.error)) check.problems.push(`no ${kind} fault completed`);
  check.notes.push(
    `${input.faults.length} faults: ${Object.entries(Object.groupBy(input.faults, (event) => event.kind))
      .map(([kind, events]) => `${kind} ${events?.length ?? 0}`)
      .join(', ')}`,
  );
  return check;
}

export function reconcile(input: ReconcileInput): Check[] {
  return [checkFaults(input), checkAcknowledged(input), checkFinal(input), checkOnChain(input), checkCallbacks(input), checkX402(input), checkKeyCounts(input)];
}
