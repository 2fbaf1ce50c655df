import postgres from 'postgres';

/** The rows the reconciliation reads, straight from PostgreSQL (not through the proxy the faults cut). */
export interface PaymentRow {
  railPaymentId: string;
  tmsReference: string;
  status: 'PENDING' | 'SETTLED' | 'BLOCKED' | 'FAILED';
  /** The quote given with the payment (request.quoteId). */
  givenQuoteId: string | null;
  quoteId: string | null;
  txHash: string | null;
  amount: string;
  creditor: string;
}

export interface CallbackRow {
  railPaymentId: string;
  state: 'PENDING' | 'DELIVERED' | 'FAILED';
  attempt: number;
  body: string;
  lastError: string | null;
}

export interface X402Row {
  payer: string;
  nonce: string;
  state: 'CLAIMED' | 'SETTLING' | 'SETTLED' | 'FAILED';
  amount: string;
}

export interface DatabaseView {
  payments: PaymentRow[];
  callbacks: CallbackRow[];
  x402: X402Row[];
}

export interface DatabaseReader {
  read(institutionId: string): Promise<DatabaseView>;
  close(): Promise<void>;
}

export function databaseReader(databaseUrl: string, schema: string): DatabaseReader {
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  const table = (name: string) => sql(`${schema}.${name}`);
  return {
    async read(institutionId) {
      const payments = await sql<PaymentRow[]>`
        select rail_payment_id as "railPaymentId", tms_reference as "tmsReference", status, request ->> 'quoteId' as "givenQuoteId",
               quote_id as "quoteId", tx_hash as "txHash", request ->> 'amount' as amount, request -> 'creditor' ->> 'walletAddress' as creditor
        from ${table('payments')} where institution_id = ${institutionId}`;
      const callbacks = await sql<CallbackRow[]>`
        select c.rail_payment_id as "railPaymentId", c.state, c.attempt, c.body, c.last_error as "lastError"
        from ${table('payment_callbacks')} c join ${table('payments')} p on p.rail_payment_id = c.rail_payment_id
        where p.institution_id = ${institutionId}`;
      const x402 = await sql<X402Row[]>`select lower(payer) as payer, lower(nonce) as nonce, state, amount::text as amount from ${table('x402_payments')}`;
      return { payments: [...payments], callbacks: [...callbacks], x402: [...x402] };
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
