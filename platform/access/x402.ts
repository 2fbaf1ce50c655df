import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicActions, type Address } from 'viem';
import { verify, settle } from 'x402/facilitator';
import { decodePayment } from 'x402/schemes';
import { settleResponseHeader, type PaymentPayload, type PaymentRequirements } from 'x402/types';
import { x402Payments } from '../../drizzle/schema.js';
import type { ChainConnection, RailChain } from '../chain/index.js';
import type { Database } from '../db.js';

export const X402_VERSION = 1;
const NETWORK = 'base';
const SETTLEMENT_TIMEOUT_SECONDS = 60;

/** What a priced route or field costs, and what the payer is told it buys. */
export interface Price {
  /** Token base units (6 decimals): 2000000 is 2.00 USDC. */
  amount: bigint;
  description: string;
}

export interface PaymentOutcome {
  ok: true;
  payer: Address;
  transaction: string;
  header: string;
}

export interface PaymentRefusal {
  ok: false;
  reason: string;
  requirements: PaymentRequirements;
}

/** The 402 body of the x402 specification: the requirements the client signs against. */
export function paymentRequiredBody(requirements: PaymentRequirements, reason: string) {
  return { x402Version: X402_VERSION, error: reason, accepts: [requirements] };
}

/** The rail has no account to settle payments with (RPC_URL without a facilitator, for now). */
export class PaymentsUnavailableError extends Error {
  override name = 'PaymentsUnavailableError';
  constructor() {
    super('x402 payments are not available on this rail');
  }
}

/** An exact-scheme EVM payment: an EIP-3009 authorization and its signature. */
type EvmPaymentPayload = PaymentPayload & { payload: { authorization: { from: string; nonce: string; value: string } } };

export interface X402Options {
  chain: RailChain;
  db: Database;
  clock: { now(): Date };
}

/**
 * x402 on the rail (exact scheme, EIP-3009 on the rail's token):
 * 1. The payment is verified before any paid work, by the x402 package's facilitator `verify`:
 *    signature under the token's EIP-712 domain, payee, asset, validity window, amount, balance.
 * 2. The authorization (payer, nonce) is then claimed in the database, which the x402 package
 *    does not do: a second use of one payment, concurrent or later, finds it claimed and is refused.
 * 3. It is settled with transferWithAuthorization by the rail's own account; a failed settlement
 *    releases the claim so the payer may retry with the same authorization.
 */
export function createX402(options: X402Options) {
  async function requirementsFor(price: Price, resource: string): Promise<{ requirements: PaymentRequirements; connection: ChainConnection }> {
    const connection = await options.chain.connect();
    if (!connection.payment) throw new PaymentsUnavailableError();
    const { token, payTo, tokenDomain } = connection.payment;
    return {
      connection,
      requirements: {
        scheme: 'exact',
        network: NETWORK,
        maxAmountRequired: price.amount.toString(),
        resource,
        description: price.description,
        mimeType: 'application/json',
        payTo,
        maxTimeoutSeconds: SETTLEMENT_TIMEOUT_SECONDS,
        asset: token,
        extra: { name: tokenDomain.name, version: tokenDomain.version },
      },
    };
  }

  async function claim(payload: EvmPaymentPayload, resource: string): Promise<boolean> {
    const { from, nonce, value } = payload.payload.authorization;
    const rows = await options.db
      .insert(x402Payments)
      .values({ payer: from.toLowerCase(), nonce: nonce.toLowerCase(), resource, amount: value, claimedAt: options.clock.now() })
      .onConflictDoNothing()
      .returning({ nonce: x402Payments.nonce });
    return rows.length === 1;
  }

  async function release(payer: string, nonce: string): Promise<void> {
    await options.db.delete(x402Payments).where(and(eq(x402Payments.payer, payer.toLowerCase()), eq(x402Payments.nonce, nonce.toLowerCase())));
  }

  async function record(payer: string, nonce: string, transaction: string): Promise<void> {
    await options.db.update(x402Payments).set({ transaction }).where(and(eq(x402Payments.payer, payer.toLowerCase()), eq(x402Payments.nonce, nonce.toLowerCase())));
  }

  return {
    requirementsFor,
    /** Verifies, claims and settles the X-PAYMENT header for `price`; every failure says why. */
    async pay(header: string | undefined, price: Price, resource: string): Promise<PaymentOutcome | PaymentRefusal> {
      const { requirements, connection } = await requirementsFor(price, resource);
      const refuse = (reason: string): PaymentRefusal => ({ ok: false, reason, requirements });
      if (!header) return refuse('X-PAYMENT header is required');
      let payload: PaymentPayload;
      try {
        payload = decodePayment(header);
      } catch {
        return refuse('invalid_payment_header: not a base64-encoded x402 payment payload');
      }
      if (payload.x402Version !== X402_VERSION || payload.scheme !== 'exact' || payload.network !== NETWORK || !('authorization' in payload.payload)) {
        return refuse('unsupported_scheme_or_network: expected x402Version 1, scheme exact, network base');
      }
      // The exact scheme on an EVM network: the payload is an EIP-3009 authorization (checked just above).
      const evmPayload = payload as EvmPaymentPayload;
      // x402 types its clients with its own copies of viem's generics; ours are the same viem clients
      // (a public client to read, the rail's wallet with public actions to settle).
      const verification = await verify(connection.publicClient as never, payload, requirements);
      if (!verification.isValid) return refuse(verification.invalidReason ?? 'invalid_payment');
      if (!(await claim(evmPayload, resource))) return refuse('payment_already_used: this authorization was presented before');
      const { from, nonce } = evmPayload.payload.authorization;
      // A revert or an unreachable rail: the claim is released below and the payer may retry.
      const settlement = await settle(connection.payment!.settler.extend(publicActions) as never, payload, requirements).catch(() => ({
        success: false as const,
        errorReason: 'settlement_failed',
        transaction: '',
        network: NETWORK,
        payer: from,
      }));
      if (!settlement.success) {
        await release(from, nonce);
        return refuse(settlement.errorReason ?? 'settlement_failed');
      }
      await record(from, nonce, settlement.transaction);
      return { ok: true, payer: from as Address, transaction: settlement.transaction, header: settleResponseHeader(settlement) };
    },
  };
}

export type X402 = ReturnType<typeof createX402>;

/** A Fastify preHandler charging `price` for the route: 402 with the requirements, or on with X-PAYMENT-RESPONSE. */
export function requirePayment(x402: X402, price: Price) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const resource = `${request.protocol}://${request.host}${request.url.split('?')[0] ?? ''}`;
    const outcome = await x402.pay(request.requestContext.headers['x-payment'], price, resource);
    if (!outcome.ok) return reply.code(402).send(paymentRequiredBody(outcome.requirements, outcome.reason));
    reply.header('x-payment-response', outcome.header);
    reply.header('access-control-expose-headers', 'X-PAYMENT-RESPONSE');
  };
}
