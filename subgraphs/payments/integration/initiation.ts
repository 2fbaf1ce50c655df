import { LRUCache } from 'lru-cache';
import type { Tenant } from '../../../platform/access/admission.js';
import { AppError } from '../../../platform/errors.js';
import { toAppError } from '../../../platform/http.js';
import type { IdSource } from '../../../platform/ids.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { NativePayment, PaymentResult } from '../domain/index.js';
import { buildPacs002ForMapping, type IsoIssue, MAX_REPORT_MESSAGE_ID_LENGTH, type Pacs002Document } from './domain/index.js';
import { readBatch, readPaymentInitiation } from './inputs.js';
import { type Payments, type PaymentsService, requestDigestOf } from './service.js';
import { FINAL_ROWS_CACHED } from './store.js';

/**
 * What POST /payments/initiate, the batch path and their MCP tools do with a body, alike
 * (decisions 0022, 0025 and 0028):
 * 1. a native payment -> service.initiate -> its PaymentResult;
 * 2. a pain.001 -> every transaction of every PmtInf through service.initiate, one after the
 *    other in document order, each idempotent by its own tmsReference (EndToEndId, or
 *    `<MsgId>/<pmtInf>/<tx>` for NOTPROVIDED) -> the pacs.002 report of their results;
 * 3. a batch {payments: 1..50} -> each through service.initiate in order, independently: a payment
 *    the service refuses as a whole (409 another body under its reference, 503) is answered in its
 *    place as {tmsReference, error, code} and the others go on (what the service stored stays).
 * A malformed body is PAY_ERR_INVALID_REQUEST (400) naming each problem by its JSON path.
 */

const MAX_ISSUES_IN_MESSAGE = 10;
/** Native bodies remembered by their text (decision 0043): as many as the store keeps final rows, within TEXT_REMEMBERED characters. */
const BODIES_REMEMBERED = FINAL_ROWS_CACHED;
const TEXT_REMEMBERED = 16 * 1024 * 1024;
/** A longer text is read every time (a native payment's fields fit in far less; the rest would be whitespace). */
export const MAX_REMEMBERED_TEXT_LENGTH = 8_192;

/**
 * A native payment read from a body, and its digest: what readPaymentInitiation and requestDigestOf
 * make of the same text, every time. The digest is taken at the first retry: the first request's
 * own was the service's, and most payments are never retried.
 */
interface ReadNative {
  payment: NativePayment;
  requestSha256?: string;
}

/** Shared by every request sending the same text: frozen, so no request can change what another reads. */
function frozen(payment: NativePayment): NativePayment {
  Object.freeze(payment.creditor);
  Object.freeze(payment.debtor);
  return Object.freeze(payment);
}

/** The 400 for a body's issues, each `path message`, the first 10 and a count of the rest. */
export function invalidBody(issues: readonly IsoIssue[]): AppError {
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((issue) => `${issue.path} ${issue.message}`);
  const more = issues.length > MAX_ISSUES_IN_MESSAGE ? `; and ${issues.length - MAX_ISSUES_IN_MESSAGE} more` : '';
  return new AppError('PAY_ERR_INVALID_REQUEST', { message: `Invalid body: ${shown.join('; ')}${more}` });
}

/** A batch entry the service refused as a whole: the catalog error in the integration shape. */
export interface BatchRefusal {
  tmsReference: string;
  error: string;
  code: string;
}

export type BatchEntry = PaymentResult | BatchRefusal;

/** The pacs.002 report's MsgId: `RAIL-` and 24 hex digits (29 characters, within MAX_REPORT_MESSAGE_ID_LENGTH). */
function reportMessageId(ids: IdSource): string {
  const id = `RAIL-${ids.uuid().replaceAll('-', '').slice(0, 24).toUpperCase()}`;
  return id.slice(0, MAX_REPORT_MESSAGE_ID_LENGTH);
}

/**
 * The body readers, shared by every tenant (what is remembered is a function of a body's text
 * alone); `for(tenant)` reads and initiates as that tenant, whose payments they become.
 */
export function createInitiation(deps: { payments: Payments; ids: IdSource }) {
  /**
   * Native payment bodies answered before, by their exact text (decision 0043): the same text parses
   * to the same JSON, which validates to the same payment with the same digest, so a retry (a replay
   * in practice) skips the validation and the canonical JSON and goes through the service as any
   * request does: its claim, the 409 on another digest, a PENDING payment read from the database.
   */
  const nativeByText = new LRUCache<string, ReadNative>({ max: BODIES_REMEMBERED, maxSize: TEXT_REMEMBERED, sizeCalculation: (_read, text) => text.length });
  function remember(bodyText: string | undefined, payment: NativePayment): void {
    if (bodyText === undefined || bodyText.length > MAX_REMEMBERED_TEXT_LENGTH) return;
    nativeByText.set(bodyText, { payment: frozen(payment) });
  }

  /** The body readers as one tenant: its payments, its replays. */
  function forTenant(tenant: Tenant): Initiation {
    const service: PaymentsService = deps.payments.for(tenant);
    return {
      async initiate(context, body, bodyText) {
        const known = bodyText === undefined ? undefined : nativeByText.get(bodyText);
        if (known) return service.initiate(context, known.payment, { requestSha256: (known.requestSha256 ??= requestDigestOf(known.payment)) });
        const read = readPaymentInitiation(body);
        if (!read.ok) throw invalidBody(read.issues);
        if (read.value.kind === 'native') {
          const result = await service.initiate(context, read.value.payment);
          // Only a body the service answered is remembered: it took the same digest, so this one cannot fail.
          remember(bodyText, read.value.payment);
          return result;
        }
        const { mapping } = read.value;
        const results: PaymentResult[] = [];
        // In order, one at a time: the report lists them in document order, and one debtor's
        // transfers are not raced against each other on the rail.
        for (const transfer of mapping.transfers) results.push(await service.initiate(context, transfer.payment));
        return buildPacs002ForMapping(mapping, results, { messageId: reportMessageId(deps.ids), createdAtMs: context.clock.now().getTime() });
      },

      async batch(context, body) {
        const read = readBatch(body);
        if (!read.ok) throw invalidBody(read.issues);
        const entries: BatchEntry[] = [];
        for (const payment of read.value) {
          try {
            entries.push(await service.initiate(context, payment));
          } catch (error) {
            // Another body under a used reference (409), text the digest refuses (400), a dependency down (503).
            const refusal = toAppError(error);
            if (refusal.code === 'GEN_ERR_INTERNAL') throw error;
            entries.push({ tmsReference: payment.tmsReference, error: refusal.message, code: refusal.code });
          }
        }
        return entries;
      },
    };
  }

  return { for: forTenant };
}

/** What POST /payments/initiate, the batch path and their MCP tools do with a body, as one tenant. */
export interface Initiation {
  /**
   * POST /integration/payments/initiate: a PaymentResult for a native payment, the pacs.002 report
   * for a pain.001. `bodyText` is the JSON text `body` was parsed from, when the caller has it.
   */
  initiate(context: RequestContext, body: unknown, bodyText?: string): Promise<PaymentResult | Pacs002Document>;
  /** The batch path: one entry per payment, in order. */
  batch(context: RequestContext, body: unknown): Promise<BatchEntry[]>;
}

/** The body readers of every tenant. */
export type Initiations = ReturnType<typeof createInitiation>;
