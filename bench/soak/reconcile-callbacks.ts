import type { Check, ReconcileInput } from './checks.js';
import { CALLBACK_TIMEOUT_MS } from './cluster-environment.js';
import type { Delivery } from './records.js';
import { overlapsFault } from './timeline.js';

/**
 * Callbacks, exactly once per attempt (decision 0089): every final payment's callback is DELIVERED
 * and the receiver saw the attempt recorded as delivered, every delivery verifies and carries the
 * stored bytes, and each (payment, attempt) reached the receiver once. The one repeat decision
 * 0024 §5 allows (the worker stopped between the receiver's answer and recording it, so the same
 * attempt went again after its lease) is accepted only when a payments process was killed, or
 * PostgreSQL cut, between the first delivery (less an attempt's bound) and the repeat; it is counted.
 */
export function checkCallbacks(input: ReconcileInput): Check {
  const check: Check = { name: 'every final payment has its callback, delivered once per attempt', problems: [], notes: [] };
  const deliveries = Map.groupBy(input.deliveries, (delivery) => delivery.railPaymentId);
  const callbacks = new Map(input.database.callbacks.map((row) => [row.railPaymentId, row]));
  let explained = 0;
  for (const payment of input.database.payments) {
    if (payment.status === 'PENDING') continue;
    const row = callbacks.get(payment.railPaymentId);
    const seen = deliveries.get(payment.railPaymentId) ?? [];
    deliveries.delete(payment.railPaymentId);
    if (!row) {
      check.problems.push(`${payment.railPaymentId} (${payment.status}): no callback row`);
      continue;
    }
    if (row.state !== 'DELIVERED') check.problems.push(`${payment.railPaymentId}: callback ${row.state} after ${row.attempt} attempts (${row.lastError ?? 'no error recorded'})`);
    else if (!seen.some((delivery) => delivery.attempt === row.attempt)) check.problems.push(`${payment.railPaymentId}: attempt ${row.attempt} recorded as delivered, never received`);
    for (const delivery of seen) {
      if (!delivery.signatureValid) check.problems.push(`${payment.railPaymentId}: attempt ${delivery.attempt} did not verify`);
      if (delivery.body !== row.body) check.problems.push(`${payment.railPaymentId}: attempt ${delivery.attempt} carried other bytes than stored`);
      else if ((JSON.parse(delivery.body) as { status?: string }).status !== payment.status) check.problems.push(`${payment.railPaymentId}: the callback says another status than ${payment.status}`);
    }
    explained += checkRepeats(input, payment.railPaymentId, seen, check);
  }
  for (const [railPaymentId, seen] of deliveries) check.problems.push(`${railPaymentId}: ${seen.length} callbacks for no final payment of the soak`);
  const delivered = input.database.callbacks.filter((row) => row.state === 'DELIVERED').length;
  check.notes.push(`${input.deliveries.length} deliveries received, ${delivered} callbacks delivered, ${explained} repeats of an attempt explained by a kill or an outage`);
  return check;
}

/** Counts the explained repeats of each attempt; an unexplained one is a problem. */
function checkRepeats(input: ReconcileInput, railPaymentId: string, seen: readonly Delivery[], check: Check): number {
  let explained = 0;
  for (const [attempt, same] of Map.groupBy(seen, (delivery) => delivery.attempt)) {
    for (const repeat of same.slice(1)) {
      if (overlapsFault(same[0]!.at - CALLBACK_TIMEOUT_MS, repeat.at, input.faults, ['payments', 'postgres'])) explained += 1;
      else check.problems.push(`${railPaymentId}: attempt ${attempt} received ${same.length} times with no kill of a payments process or PostgreSQL cut in between`);
    }
  }
  return explained;
}
