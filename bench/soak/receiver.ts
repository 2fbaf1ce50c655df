import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Delivery } from './records.js';

/**
 * The soak's callback receiver on 127.0.0.1: records every delivery (X-Rail-PaymentId,
 * X-Rail-Attempt, the raw body, whether X-Rail-Signature verifies under the cluster's webhook key,
 * docs/webhooks.md) and answers 204 at once, so every attempt that reaches it is delivered.
 */
export interface CallbackReceiver {
  url: string;
  deliveries(): readonly Delivery[];
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

function signatureValid(body: Buffer, header: string | string[] | undefined, key: string): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', key).update(body).digest();
  return timingSafeEqual(Buffer.from(header, 'hex'), expected);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy(new Error('callback body too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startCallbackReceiver(webhookSigningKey: string): Promise<CallbackReceiver> {
  const seen: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        seen.push({
          railPaymentId: String(request.headers['x-rail-paymentid'] ?? ''),
          attempt: Number(request.headers['x-rail-attempt'] ?? 0),
          at: Date.now(),
          signatureValid: signatureValid(body, request.headers['x-rail-signature'], webhookSigningKey),
          body: body.toString('utf8'),
        });
        response.writeHead(204).end();
      },
      () => response.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/rail-callbacks`,
    deliveries: () => seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
