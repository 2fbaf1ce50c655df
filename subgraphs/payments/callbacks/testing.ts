// Test support for the payment callback tests (not a test file itself): a callback receiver on
// 127.0.0.1 that keeps every delivery as received (raw body bytes, headers, the test clock's time)
// and answers each as the test says.

import Fastify from 'fastify';
import type { Clock } from '../../../platform/clock.js';
import { createLogger } from '../../../platform/log.js';
import type { PaymentResult } from '../domain/index.js';

export const TEST_WEBHOOK_KEY = 'webhook-test-key-0123456789abcdef0123456789';

export interface ReceivedCallback {
  paymentId: string;
  /** X-Rail-Attempt, 1-based. */
  attempt: number;
  signature: string;
  contentType: string;
  rawBody: Buffer;
  /** The test clock's time when it arrived. */
  at: Date;
}

/** How the receiver answers the n-th delivery (0-based over all deliveries): a status, or 'hang' (never answers). */
export type ReceiverAnswer = (delivery: ReceivedCallback, index: number) => number | 'hang';

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  close(): Promise<void>;
}

export async function startCallbackReceiver(clock: Clock, answer: ReceiverAnswer): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const app = Fastify({ loggerInstance: createLogger({ logLevel: 'silent' }), forceCloseConnections: true });
  // The raw bytes, as a receiver verifying the signature must keep them.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post('/hooks/rail', async (request, reply) => {
    const header = (name: string) => String(request.headers[name] ?? '');
    const delivery: ReceivedCallback = {
      paymentId: header('x-rail-paymentid'),
      attempt: Number(header('x-rail-attempt')),
      signature: header('x-rail-signature'),
      contentType: header('content-type'),
      rawBody: request.body as Buffer,
      at: clock.now(),
    };
    received.push(delivery);
    const status = answer(delivery, received.length - 1);
    if (status === 'hang') return new Promise<never>(() => {});
    return reply.code(status).send({ ok: status < 300 });
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/hooks/rail`, received, close: () => app.close() };
}

/** A PaymentResult in the spec's shape (§2), as a settled payment's callback carries it. */
export function samplePaymentResult(railPaymentId: string): PaymentResult {
  return {
    railPaymentId,
    tmsReference: `TMS-${railPaymentId}`,
    status: 'SETTLED',
    submittedAt: 1795348800,
    settledAt: 1795348802,
    settlement: {
      txHash: `0x${'ab'.repeat(32)}`,
      amount: '1250.00',
      currency: 'EUR',
      asset: 'USDC',
      network: 'base-mainnet',
      exchangeRate: '1.0842',
      fee: '0.42',
    },
    vop: { requestId: 'vop_1', result: 'VERIFIED', proceedSafe: true, score: 96, resolvedBy: 'NAME_MATCH', message: 'Name matches the registered entity — café Zürich ✓' },
    compliance: { fatfR16Compliant: true, micaCompliant: true, geniusCompliant: true, regulatoryNote: 'Originator and beneficiary data travel with the transfer.' },
  };
}
