import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paymentCallbacks } from '../../../drizzle/schema.js';
import { ACTIVE_LEI_ENTRY } from '../../../test/fixtures/lei-entries.js';
import { injectJson, startTestServer, type TestServer } from '../../../test/helpers.js';

// The callback worker mounted in the all-in-one server (decision 0027): a payment with a callbackUrl
// gets its signed PaymentResult POSTed by the running server's own worker, with nothing called by
// the test but the integration API. The receiver listens on 127.0.0.1, a private address: delivered
// only with CALLBACK_ALLOW_PRIVATE_TARGETS, refused by default.

const ADMIN_KEY = 'callback-test-admin-key-0123456789abcdef01';
const WEBHOOK_SIGNING_KEY = 'callback-test-webhook-key-0123456789abcdef';
/** Longest the test waits for the worker (woken by the payment's commit); a bound, not an assertion. */
const WAIT_MS = 20_000;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let server: TestServer | undefined;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/payments`;
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

async function start(environment: Record<string, string>): Promise<TestServer> {
  server = await startTestServer({ subgraphs: ['compliance', 'fees', 'payments'], environment: { ADMIN_KEY, WEBHOOK_SIGNING_KEY, ...environment } });
  return server;
}

/** A settled payment to a registered creditor, with callbackUrl. */
async function payWithCallback(running: TestServer): Promise<Record<string, any>> {
  const creditor = getAddress(`0x${randomBytes(20).toString('hex')}`);
  const registered = await injectJson(running, 'POST', '/compliance/register', { payload: { walletAddress: creditor, lei: ACTIVE_LEI_ENTRY.lei }, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  expect([200, 201]).toContain(registered.status);
  const key = (await running.platform!.access.keys.create('bearer', 'treasury desk', 1000)).key;
  const payment = {
    tmsReference: `TMS-${randomBytes(6).toString('hex')}`,
    amount: '100.00',
    currency: 'USD',
    creditor: { name: ACTIVE_LEI_ENTRY.legalName, lei: ACTIVE_LEI_ENTRY.lei, walletAddress: creditor },
    debtor: { name: 'Acme Treasury Ltd', walletAddress: getAddress(`0x${randomBytes(20).toString('hex')}`) },
    callbackUrl: receiverUrl,
  };
  const { status, body } = await injectJson(running, 'POST', '/integration/payments/initiate', { payload: payment, headers: { authorization: `Bearer ${key}` } });
  expect([status, body.status]).toEqual([200, 'SETTLED']);
  return body;
}

/** The outbox row once it has left PENDING (polled), or the last one seen. */
async function settledCallback(running: TestServer, railPaymentId: string) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const [row] = await running.platform!.database.db.select().from(paymentCallbacks).where(eq(paymentCallbacks.railPaymentId, railPaymentId));
    if ((row && row.state !== 'PENDING') || Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the callback worker runs in the server', () => {
  it('with CALLBACK_ALLOW_PRIVATE_TARGETS: the PaymentResult is delivered once, signed with the webhook key', async () => {
    const running = await start({ CALLBACK_ALLOW_PRIVATE_TARGETS: 'true' });
    const result = await payWithCallback(running);
    const row = await settledCallback(running, result.railPaymentId);
    expect(row).toMatchObject({ state: 'DELIVERED', attempt: 1, lastStatus: 204 });
    const deliveries = received.filter((delivery) => delivery.headers['x-rail-paymentid'] === result.railPaymentId);
    expect(deliveries).toHaveLength(1);
    const [delivery] = deliveries as [Received];
    expect(JSON.parse(delivery.body)).toEqual(result);
    expect(delivery.headers['x-rail-signature']).toBe(createHmac('sha256', WEBHOOK_SIGNING_KEY).update(delivery.body).digest('hex'));
    expect(delivery.headers['x-rail-signature']).not.toBe(createHmac('sha256', `${WEBHOOK_SIGNING_KEY}x`).update(delivery.body).digest('hex'));
    expect(delivery.headers['x-rail-attempt']).toBe('1');
    expect(delivery.headers['content-type']).toBe('application/json');
  });

  it('by default a private target is refused: the callback ends FAILED and nothing reaches the receiver', async () => {
    const running = await start({});
    const result = await payWithCallback(running);
    const row = await settledCallback(running, result.railPaymentId);
    expect(row).toMatchObject({ state: 'FAILED', attempt: 1, lastStatus: null, lastError: expect.stringContaining('non-public address') });
    expect(received.filter((delivery) => delivery.headers['x-rail-paymentid'] === result.railPaymentId)).toEqual([]);
  });
});
