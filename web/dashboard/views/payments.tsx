import { useState } from 'preact/hooks';
import { Part } from '../components/part.js';
import { TableScroll } from '../components/table-scroll.js';
import { formatEpochSeconds } from '../format.js';
import { errorsAt, errorsWithoutPath } from '../graphql.js';
import { useRequest } from '../use-request.js';

const PAYMENTS_QUERY = `query InstitutionPayments($first: Int!, $status: PaymentStatus) {
  institutionPayments(first: $first, status: $status) {
    railPaymentId tmsReference status submittedAt settledAt
    settlement { txHash amount currency asset network fee }
    vop { result }
    callback { status attempts lastHttpStatus queuedAt nextAttemptAt deliveredAt }
  }
}`;

const STATUSES = ['SETTLED', 'PENDING', 'BLOCKED', 'FAILED'] as const;

interface Payment {
  railPaymentId: string;
  tmsReference: string;
  status: string;
  submittedAt: number;
  settledAt: number;
  settlement: { txHash: string; amount: string; currency: string; asset: string; network: string; fee: string };
  vop: { result: string };
  callback: { status: string; attempts: number; lastHttpStatus: number | null; queuedAt: number; nextAttemptAt: number | null; deliveredAt: number | null } | null;
}

function callbackText(callback: Payment['callback']): string {
  if (!callback) return 'none';
  const last = callback.lastHttpStatus === null ? '' : `, last HTTP ${callback.lastHttpStatus}`;
  const when = callback.deliveredAt ? `, delivered ${formatEpochSeconds(callback.deliveredAt)}` : callback.nextAttemptAt ? `, next ${formatEpochSeconds(callback.nextAttemptAt)}` : '';
  return `${callback.status} after ${callback.attempts} attempt(s)${last}${when}`;
}

function PaymentsTable({ payments }: { payments: Payment[] }) {
  if (payments.length === 0) return <p>No payments for this institution with these filters.</p>;
  return (
    <TableScroll label="Payments table">
      <table class="payments">
        <caption>{payments.length} payment(s), newest first</caption>
        <thead>
          <tr>
            <th scope="col">Reference</th>
            <th scope="col">Status</th>
            <th scope="col">Amount</th>
            <th scope="col">Submitted</th>
            <th scope="col">Settled</th>
            <th scope="col">Settlement transaction</th>
            <th scope="col">Callback</th>
          </tr>
        </thead>
        <tbody>
          {payments.map((payment) => (
            <tr key={payment.railPaymentId} data-payment={payment.railPaymentId}>
              <th scope="row">
                {payment.tmsReference}
                <span class="detail">{payment.railPaymentId}</span>
              </th>
              <td>
                <span class={`badge status-${payment.status.toLowerCase()}`}>{payment.status}</span>
              </td>
              <td>
                {payment.settlement.amount} {payment.settlement.currency} (fee {payment.settlement.fee})
              </td>
              <td>{formatEpochSeconds(payment.submittedAt)}</td>
              <td>{formatEpochSeconds(payment.settledAt)}</td>
              <td class="hash">{payment.settlement.txHash || 'not sent'}</td>
              <td>{callbackText(payment.callback)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

export function PaymentsView() {
  const [institutionKey, setInstitutionKey] = useState('');
  const [status, setStatus] = useState('');
  const [first, setFirst] = useState('20');
  const [problem, setProblem] = useState('');
  const request = useRequest<{ institutionPayments: Payment[] | null }>();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const count = Number(first);
    if (!institutionKey.trim()) return setProblem('Enter the institution key the payments were made with.');
    if (!Number.isInteger(count) || count < 1 || count > 100) return setProblem(`How many "${first}" is not a whole number from 1 to 100.`);
    setProblem('');
    void request.run(PAYMENTS_QUERY, { first: count, status: status || null }, { institutionKey: institutionKey.trim() });
  };
  const errors = request.answer?.errors ?? [];
  return (
    <section aria-labelledby="payments-title">
      <h2 id="payments-title">Payments</h2>
      <p class="lead">
        An institution's payments with their status, settlement transaction and callback. The institution key is sent as Authorization: Bearer and kept in this page only (never stored).
      </p>
      <form class="form" onSubmit={onSubmit}>
        <div class="field">
          <label for="institution-key">Institution key</label>
          <input id="institution-key" name="institution-key" type="password" autocomplete="off" value={institutionKey} onInput={(event) => setInstitutionKey(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="payment-status">Status</label>
          <select id="payment-status" name="payment-status" value={status} onChange={(event) => setStatus(event.currentTarget.value)}>
            <option value="">Any status</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="payment-first">How many (1 to 100)</label>
          <input id="payment-first" name="payment-first" inputMode="numeric" value={first} onInput={(event) => setFirst(event.currentTarget.value)} />
        </div>
        <button type="submit" disabled={request.loading}>
          Show payments
        </button>
      </form>
      {problem ? (
        <p class="problems" role="alert">
          {problem}
        </p>
      ) : null}
      {request.answer ? (
        <Part id="payments-list" title="Payments" value={request.answer.data?.institutionPayments} errors={[...errorsAt(errors, ['institutionPayments']), ...errorsWithoutPath(errors)]}>
          {(payments) => <PaymentsTable payments={payments} />}
        </Part>
      ) : null}
    </section>
  );
}
