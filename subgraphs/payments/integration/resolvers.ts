import DataLoader from 'dataloader';
import { admitInstitution, setHeaders, type Tenant } from '../../../platform/access/admission.js';
import type { ApiKeys } from '../../../platform/access/api-keys.js';
import { requireInternalKey } from '../../../platform/access/shared-secret.js';
import { epochSeconds } from '../../../platform/clock.js';
import { AppError } from '../../../platform/errors.js';
import { parseGraphQLInput, withoutNulls } from '../../../platform/graphql.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SubgraphContext } from '../../../platform/subgraph.js';
import type { PaymentResult } from '../domain/index.js';
import type { PartyKind, PaymentGraphStore, PaymentStatusFilter, StoredCallback, StoredPayment } from './graph-store.js';
import type { Initiations } from './initiation.js';
import { rateParamsSchema, readPaymentInitiation } from './inputs.js';
import { integrationManifest } from './manifest.js';
import type { Payments } from './service.js';
import { treasurySummaryQuerySchema, type TreasurySummaryService } from './treasury-summary.js';

/**
 * The payments graph: thin, calls the same service as routes.ts. An institution key (or the admin
 * key) is required as in REST (401 GEN_ERR_UNAUTHORIZED, 429 with the X-RateLimit-* headers set on
 * the answer), and every field answers as that tenant: an institution sees only its own payments
 * (decision 0050).
 */
async function requireTenant(keys: ApiKeys, adminKey: string | undefined, request: RequestContext): Promise<Tenant> {
  const { headers, refusal, tenant } = await admitInstitution(keys, adminKey, request);
  setHeaders(request, headers);
  if (refusal || !tenant) throw refusal ?? new AppError('GEN_ERR_UNAUTHORIZED');
  return tenant;
}

/** Whose payments a tenant's lists show: one institution's, or (the admin) every one's. */
const ownerFilterOf = (tenant: Tenant): string | null => (tenant.kind === 'admin' ? null : tenant.institutionId);

const orNull = <T>(work: Promise<T>): Promise<T | null> =>
  work.catch((error: unknown) => {
    if (error instanceof AppError && (error.code === 'PAY_ERR_PAYMENT_NOT_FOUND' || error.code === 'PAY_ERR_RATE_UNAVAILABLE')) return null;
    throw error;
  });

/**
 * Per request (issue 10 item 8): the institution key checked and counted once however many
 * entities ask, and each list of payments loaded through a DataLoader, one statement per batch of
 * parents (graph-store.ts), holding only the tenant's payments. A payment listed under a parent
 * primes `payment`, so its parties are not read again.
 */
export function createPaymentsContext(store: PaymentGraphStore, access: { keys: ApiKeys; adminKey: string | undefined }, request: RequestContext) {
  let admitted: Promise<Tenant> | undefined;
  const tenant = () => (admitted ??= requireTenant(access.keys, access.adminKey, request));
  const payment = new DataLoader<string, StoredPayment | null>(async (ids) => {
    const found = await store.byIds(ids, ownerFilterOf(await tenant()));
    return ids.map((id) => found.get(id) ?? null);
  });
  const callback = new DataLoader<string, StoredCallback | null>(async (ids) => {
    const found = await store.callbacksOf(ids, ownerFilterOf(await tenant()));
    return ids.map((id) => found.get(id) ?? null);
  });
  /** institutionPayments: the tenant's newest payments, each priming `payment` for its parties. */
  const recent = async (options: { limit: number; status?: PaymentStatusFilter | undefined }): Promise<PaymentResult[]> => {
    const listed = await store.recent(ownerFilterOf(await tenant()), options);
    for (const stored of listed) payment.prime(stored.railPaymentId, stored);
    return listed.map((stored) => stored.result);
  };
  const byParty = (kind: PartyKind) =>
    new DataLoader<string, PaymentResult[]>(async (parents) => {
      const found = await store.byParty(kind, parents, ownerFilterOf(await tenant()));
      return parents.map((parent) => {
        const listed = found.get(parent) ?? [];
        for (const stored of listed) payment.prime(stored.railPaymentId, stored);
        return listed.map((stored) => stored.result);
      });
    });
  return {
    request,
    tenant,
    payment,
    callback,
    recent,
    settlementsOf: byParty('agent'),
    paymentsOfWallet: byParty('wallet'),
    paymentsOfLei: byParty('lei'),
  };
}

export type PaymentsContext = ReturnType<typeof createPaymentsContext> & SubgraphContext;

/** An entity key another subgraph gives: text of a sane length, else no payments (and no query). */
const MAX_KEY_LENGTH = 200;
const usableKey = (key: unknown): key is string => typeof key === 'string' && key.length > 0 && key.length <= MAX_KEY_LENGTH;

/** The stored payment behind a Payment (its parties), loaded with the others of the request. */
async function partiesOf(parent: PaymentResult, context: PaymentsContext): Promise<StoredPayment> {
  const stored = await context.payment.load(parent.railPaymentId);
  if (!stored) throw new Error(`payments: no row for ${parent.railPaymentId}`);
  return stored;
}

/** A party's wallet as a Wallet reference, keyed as compliance keys it (lower case). */
const walletOf = (address: string) => ({ address: address.toLowerCase() });

/** A party's LEI as an entity reference compliance resolves (null: none given). */
const entityOf = (lei: string | undefined) => (lei ? { lei } : null);

/** The most payments institutionPayments answers at once (decision 0083). */
export const MAX_LISTED_PAYMENTS = 100;

/** institutionPayments' `first`: 1 to MAX_LISTED_PAYMENTS, else PAY_ERR_INVALID_REQUEST (nothing is read). */
function readListSize(first: number | null | undefined): number {
  const size = first ?? 20;
  if (!Number.isInteger(size) || size < 1 || size > MAX_LISTED_PAYMENTS)
    throw new AppError('PAY_ERR_INVALID_REQUEST', { message: `first must be an integer from 1 to ${MAX_LISTED_PAYMENTS} (got ${size}).` });
  return size;
}

/** A callback's delivery as the graph shows it: times in epoch seconds, the next attempt only while one is due. */
function presentCallback(row: StoredCallback) {
  return {
    status: row.state,
    attempts: row.attempt,
    lastHttpStatus: row.lastStatus,
    queuedAt: epochSeconds(row.createdAt),
    nextAttemptAt: row.state === 'PENDING' ? epochSeconds(row.nextAttemptAt) : null,
    deliveredAt: row.deliveredAt ? epochSeconds(row.deliveredAt) : null,
  };
}

/** The tenant's payments service, once its key is admitted. */
const servedAs = async (payments: Payments, context: PaymentsContext) => payments.for(await context.tenant());

/** A Payment's fields beyond its PaymentResult: its parties (references compliance resolves), its funding and its callback. */
function paymentResolvers(payments: Payments) {
  return {
    __resolveReference: async (reference: { railPaymentId: string }, context: PaymentsContext) => orNull((await servedAs(payments, context)).get(reference.railPaymentId)),
    creditorWallet: async (parent: PaymentResult, _: unknown, context: PaymentsContext) => walletOf((await partiesOf(parent, context)).request.creditor.walletAddress),
    debtorWallet: async (parent: PaymentResult, _: unknown, context: PaymentsContext) => walletOf((await partiesOf(parent, context)).request.debtor.walletAddress),
    creditorEntity: async (parent: PaymentResult, _: unknown, context: PaymentsContext) => entityOf((await partiesOf(parent, context)).request.creditor.lei),
    debtorEntity: async (parent: PaymentResult, _: unknown, context: PaymentsContext) => entityOf((await partiesOf(parent, context)).request.debtor.lei),
    settlementAgent: async (parent: PaymentResult, _: unknown, context: PaymentsContext) => {
      const { agentId } = await partiesOf(parent, context);
      return agentId === null ? null : { id: agentId };
    },
    fundingIssuer: async (parent: PaymentResult, _: unknown, context: PaymentsContext) => (await partiesOf(parent, context)).fundingIssuer,
    callback: async (parent: PaymentResult, _: unknown, context: PaymentsContext) => {
      const row = await context.callback.load(parent.railPaymentId);
      return row ? presentCallback(row) : null;
    },
  };
}

/** What the integration's fields need besides the payments: the internal key of the treasury summary. */
export interface IntegrationGraphDeps {
  initiation: Initiations;
  treasury: TreasurySummaryService;
  /** INTERNAL_KEY: the treasury summary (as GET /integration/treasury-summary). */
  internalKey: string | undefined;
}

/** The integration's GraphQL fields (the subgraph's resolvers.ts adds the scalars). */
export function createIntegrationResolvers(payments: Payments, deps: IntegrationGraphDeps) {
  const { initiation } = deps;
  return {
    Query: {
      institutionPayments: async (_: unknown, args: { first?: number | null; status?: PaymentStatusFilter | null }, context: PaymentsContext) => {
        await context.tenant();
        return context.recent({ limit: readListSize(args.first), status: args.status ?? undefined });
      },
      /** The body of GET /integration/manifest, with its key (decision 0056). */
      integrationManifest: async (_: unknown, __: unknown, context: PaymentsContext) => {
        await context.tenant();
        return integrationManifest();
      },
      /** The internal key first, as REST checks it before the query (decision 0066). */
      treasurySummary: (_: unknown, args: { period: string }, context: PaymentsContext) => {
        requireInternalKey(context.request, deps.internalKey);
        return deps.treasury.summary(parseGraphQLInput(treasurySummaryQuerySchema, args, 'PAY_ERR_INVALID_REQUEST').period);
      },
      payment: async (_: unknown, args: { railPaymentId: string }, context: PaymentsContext) => orNull((await servedAs(payments, context)).get(args.railPaymentId)),
      paymentByTmsReference: async (_: unknown, args: { tmsReference: string; institution?: string | null }, context: PaymentsContext) =>
        orNull((await servedAs(payments, context)).findByTmsReference(args.tmsReference, args.institution ?? undefined)),
      // Read as GET /integration/rates/:currency reads it: a malformed code is PAY_ERR_INVALID_REQUEST before fees is asked.
      fxRate: (_: unknown, args: { currency: string }) => orNull(payments.rate(parseGraphQLInput(rateParamsSchema, args, 'PAY_ERR_INVALID_REQUEST').currency)),
    },
    Mutation: {
      initiatePayment: async (_: unknown, args: { input: Record<string, unknown> }, context: PaymentsContext) => {
        const service = await servedAs(payments, context);
        const read = readPaymentInitiation(withoutNulls(args.input));
        if (!read.ok)
          throw new AppError('PAY_ERR_INVALID_REQUEST', {
            message: `Invalid input: ${read.issues
              .slice(0, 10)
              .map((issue) => `${issue.path} ${issue.message}`)
              .join('; ')}`,
          });
        if (read.value.kind !== 'native') throw new AppError('PAY_ERR_INVALID_REQUEST', { message: 'initiatePayment takes the native payment.' });
        return service.initiate(context.request, read.value.payment);
      },
      /** The batch path's own function (initiation.batch): each payment alone, in order; a refused one is its error in place. */
      initiatePayments: async (_: unknown, args: { input: unknown[] }, context: PaymentsContext) => {
        const entries = await initiation.for(await context.tenant()).batch(context.request, { payments: withoutNulls(args.input) });
        return entries.map((entry) =>
          'railPaymentId' in entry
            ? { tmsReference: entry.tmsReference, payment: entry, error: null, code: null }
            : { tmsReference: entry.tmsReference, payment: null, error: entry.error, code: entry.code },
        );
      },
    },
    Payment: paymentResolvers(payments),
    // Entities owned by compliance: a reference is its key; the lists need the institution key and hold only its payments.
    Agent: {
      __resolveReference: (reference: { id: string }) => reference,
      settlements: async (agent: { id: unknown }, _: unknown, context: PaymentsContext) => {
        await context.tenant();
        return usableKey(agent.id) ? context.settlementsOf.load(agent.id) : [];
      },
    },
    Wallet: {
      __resolveReference: (reference: { address: string }) => reference,
      payments: async (wallet: { address: unknown }, _: unknown, context: PaymentsContext) => {
        await context.tenant();
        return usableKey(wallet.address) ? context.paymentsOfWallet.load(wallet.address.toLowerCase()) : [];
      },
    },
    LegalEntity: {
      __resolveReference: (reference: { lei: string }) => reference,
      payments: async (entity: { lei: unknown }, _: unknown, context: PaymentsContext) => {
        await context.tenant();
        return usableKey(entity.lei) ? context.paymentsOfLei.load(entity.lei.toUpperCase()) : [];
      },
    },
  };
}
