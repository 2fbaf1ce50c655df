import type { NativePayment, PaymentResult } from '../../domain/index.js';
import { sumDecimals } from './iso-decimal.js';
import { PAIN001_MESSAGE_NAME, type Pain001Mapping, type Pain001TransferOrigin } from './pain001.js';

/**
 * The answer to a pain.001: a pacs.002 status report (FIToFIPaymentStatusReportV10, JSON encoding)
 * whose inner fields the spec leaves "not shown" (§2). Decision 0022 records the envelope and the
 * status mapping with their ISO 20022 sources. Pure: the report's id and time are passed in.
 */

/** ExternalPaymentTransactionStatus1Code values this rail reports. */
export type TransactionStatusCode = 'ACSC' | 'ACSP' | 'PDNG' | 'RJCT';
/** ExternalPaymentGroupStatus1Code values this rail reports. */
export type GroupStatusCode = TransactionStatusCode | 'PART';
/** ExternalStatusReason1Code values this rail reports (ISO 20022 External Code Sets). */
export type StatusReasonCode = 'BE01' | 'RR04' | 'ED05' | 'AM04' | 'NARR';

/**
 * Why a payment was rejected, when the caller knows more than the PaymentResult says:
 * a BLOCKED result is otherwise read from its vop, a FAILED one as a settlement failure.
 */
export type RejectionCause = 'VOP_NAME_MISMATCH' | 'COMPLIANCE_BLOCK' | 'SETTLEMENT_FAILED' | 'INSUFFICIENT_FUNDS' | 'OTHER';

/** The reason code for each cause, with the code's ISO name. */
export const REASON_OF_CAUSE: Readonly<Record<RejectionCause, { code: StatusReasonCode; name: string }>> = {
  // "Identification of end customer is not consistent with associated account number": the name
  // (or LEI) given for the creditor does not match the wallet's registered owner. (The code set
  // spells the name without the t.)
  VOP_NAME_MISMATCH: { code: 'BE01', name: 'InconsistenWithEndCustomer' },
  // "Regulatory Reason": AML, sanctions, a compliance hold.
  COMPLIANCE_BLOCK: { code: 'RR04', name: 'RegulatoryReason' },
  // "Settlement of the transaction has failed": the rail's error.
  SETTLEMENT_FAILED: { code: 'ED05', name: 'SettlementFailed' },
  // "Amount of funds available to cover specified message amount is insufficient."
  INSUFFICIENT_FUNDS: { code: 'AM04', name: 'InsufficientFunds' },
  // "Reason is provided as narrative information in the additional reason information."
  OTHER: { code: 'NARR', name: 'Narrative' },
};

/** Max105Text: one AddtlInf occurrence. */
export const MAX_105_TEXT = 105;
/** AddtlInf occurrences written at most (ISO: 0..unbounded); a longer note is cut at the last. */
export const MAX_ADDITIONAL_INFO = 3;
/** Max35Text: MsgId, StsId. StsId is `<MsgId>-<position>`, so the report's MsgId leaves room for 3 digits. */
export const MAX_REPORT_MESSAGE_ID_LENGTH = 31;

/** What the report needs of a PaymentResult: a full PaymentResult fits. */
export type ReportedResult = Pick<PaymentResult, 'railPaymentId' | 'tmsReference' | 'status' | 'compliance'> & Partial<Pick<PaymentResult, 'submittedAt' | 'settledAt' | 'settlement' | 'vop'>>;

export interface ReportedTransaction {
  origin: Pick<Pain001TransferOrigin, 'endToEndId' | 'instrId'>;
  payment: Pick<NativePayment, 'amount' | 'currency' | 'requestedExecutionDate'>;
  result: ReportedResult;
  /** Overrides the cause read from the result (e.g. AM04 when the rail knows the funds were short). */
  cause?: RejectionCause;
}

export interface Pacs002Input {
  /** The report's MsgId, at most 31 characters (see MAX_REPORT_MESSAGE_ID_LENGTH). */
  messageId: string;
  /** The report's creation time, epoch milliseconds (passed in: the domain reads no clock). */
  createdAtMs: number;
  original: Pick<Pain001Mapping, 'msgId' | 'creDtTm' | 'nbOfTxs' | 'ctrlSum'>;
  /** In document order. */
  transactions: ReportedTransaction[];
}

export interface Pacs002StatusReason {
  Rsn: { Cd: StatusReasonCode };
  AddtlInf?: string[];
}

/** SupplementaryData1: the ISO place for data the message definition does not hold. */
export interface Pacs002SupplementaryData {
  PlcAndNm: string;
  Envlp: { PaymentResult: ReportedResult };
}

export interface Pacs002Transaction {
  StsId: string;
  OrgnlInstrId?: string;
  OrgnlEndToEndId: string;
  TxSts: TransactionStatusCode;
  StsRsnInf?: Pacs002StatusReason[];
  /** ISODateTime: when the rail accepted the payment (its submittedAt), for ACSC and ACSP. */
  AccptncDtTm?: string;
  OrgnlTxRef: {
    Amt: { InstdAmt: { Ccy: string; value: string } };
    ReqdExctnDt?: { Dt: string };
  };
  SplmtryData: Pacs002SupplementaryData[];
}

export interface Pacs002Document {
  Document: {
    FIToFIPmtStsRpt: {
      GrpHdr: { MsgId: string; CreDtTm: string };
      OrgnlGrpInfAndSts: Array<{
        OrgnlMsgId: string;
        OrgnlMsgNmId: string;
        OrgnlCreDtTm: string;
        OrgnlNbOfTxs: string;
        OrgnlCtrlSum?: string;
        GrpSts: GroupStatusCode;
        NbOfTxsPerSts: Array<{ DtldNbOfTxs: string; DtldSts: TransactionStatusCode; DtldCtrlSum: string }>;
      }>;
      TxInfAndSts: Pacs002Transaction[];
    };
  };
}

/** Where the compliance extension sits (SplmtryData.PlcAndNm, Max350Text). */
export const EXTENSION_PLACE = 'Document.FIToFIPmtStsRpt.TxInfAndSts';

/**
 * The transaction status of a payment result.
 * 1. SETTLED -> ACSC: the on-chain transfer is final, debtor and creditor are settled in the same
 *    transaction.
 * 2. PENDING with a VoP that let it proceed -> ACSP "accepted for execution, settlement in process":
 *    every preceding check passed.
 * 3. PENDING otherwise -> PDNG "further checks and status update will be performed".
 * 4. BLOCKED and FAILED -> RJCT.
 */
export function transactionStatusOf(result: ReportedResult): TransactionStatusCode {
  switch (result.status) {
    case 'SETTLED':
      return 'ACSC';
    case 'PENDING':
      return result.vop?.proceedSafe === true ? 'ACSP' : 'PDNG';
    case 'BLOCKED':
    case 'FAILED':
      return 'RJCT';
    default:
      return unreachable(result.status);
  }
}

/**
 * The cause of a rejection read from the result: BLOCKED with a VoP that did not let it proceed is
 * the spec's "VoP name mismatch" (§3); BLOCKED after a VoP that proceeded is a compliance block
 * (AML); FAILED is the rail's error (§3). Undefined for a result that is not rejected.
 */
export function rejectionCauseOf(result: ReportedResult): RejectionCause | undefined {
  if (result.status === 'BLOCKED') return result.vop?.proceedSafe === true ? 'COMPLIANCE_BLOCK' : 'VOP_NAME_MISMATCH';
  if (result.status === 'FAILED') return 'SETTLEMENT_FAILED';
  return undefined;
}

/** Max105Text pieces of a note, at most MAX_ADDITIONAL_INFO, split at code points. */
export function additionalInfoOf(note: string): string[] {
  const characters = [...note.trim()];
  const pieces: string[] = [];
  for (let start = 0; start < characters.length && pieces.length < MAX_ADDITIONAL_INFO; start += MAX_105_TEXT) {
    pieces.push(characters.slice(start, start + MAX_105_TEXT).join(''));
  }
  return pieces;
}

function noteOf(result: ReportedResult, cause: RejectionCause): string {
  switch (cause) {
    case 'VOP_NAME_MISMATCH':
      return result.vop ? `VoP ${result.vop.result} (score ${result.vop.score}): ${result.vop.message}` : 'Verification of payee did not let the payment proceed.';
    case 'COMPLIANCE_BLOCK':
      return result.compliance.regulatoryNote;
    case 'SETTLEMENT_FAILED':
    case 'INSUFFICIENT_FUNDS':
    case 'OTHER':
      return result.compliance.regulatoryNote || 'Settlement on the rail did not complete.';
    default:
      return unreachable(cause);
  }
}

/**
 * The group status from the transactions' statuses.
 * 1. All RJCT -> RJCT; some RJCT among others -> PART (the batch is partly refused).
 * 2. None rejected: all ACSC -> ACSC; all ACSC or ACSP -> ACSP; any PDNG -> PDNG (another report
 *    will follow).
 */
export function groupStatusOf(statuses: readonly TransactionStatusCode[]): GroupStatusCode {
  if (statuses.length === 0) throw new RangeError('a pain.001 holds at least one transaction');
  const rejected = statuses.filter((status) => status === 'RJCT').length;
  if (rejected === statuses.length) return 'RJCT';
  if (rejected > 0) return 'PART';
  if (statuses.every((status) => status === 'ACSC')) return 'ACSC';
  if (statuses.every((status) => status === 'ACSC' || status === 'ACSP')) return 'ACSP';
  return 'PDNG';
}

function isoDateTimeOfSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

const DETAIL_ORDER: readonly TransactionStatusCode[] = ['ACSC', 'ACSP', 'PDNG', 'RJCT'];

/** The pacs.002 report answering one pain.001, one TxInfAndSts per transaction in document order. */
export function buildPacs002(input: Pacs002Input): Pacs002Document {
  if (input.messageId.length === 0 || input.messageId.length > MAX_REPORT_MESSAGE_ID_LENGTH) {
    throw new RangeError(`the report's MsgId must be 1 to ${MAX_REPORT_MESSAGE_ID_LENGTH} characters`);
  }
  const transactions = input.transactions.map((transaction, k): Pacs002Transaction => {
    const { origin, payment, result } = transaction;
    const status = transactionStatusOf(result);
    const cause = status === 'RJCT' ? (transaction.cause ?? rejectionCauseOf(result)) : undefined;
    const additionalInfo = cause ? additionalInfoOf(noteOf(result, cause)) : [];
    return {
      StsId: `${input.messageId}-${k + 1}`,
      ...(origin.instrId !== undefined && { OrgnlInstrId: origin.instrId }),
      OrgnlEndToEndId: origin.endToEndId,
      TxSts: status,
      ...(cause && {
        StsRsnInf: [{ Rsn: { Cd: REASON_OF_CAUSE[cause].code }, ...(additionalInfo.length > 0 && { AddtlInf: additionalInfo }) }],
      }),
      ...((status === 'ACSC' || status === 'ACSP') && result.submittedAt !== undefined && { AccptncDtTm: isoDateTimeOfSeconds(result.submittedAt) }),
      OrgnlTxRef: {
        Amt: { InstdAmt: { Ccy: payment.currency, value: payment.amount } },
        ...(payment.requestedExecutionDate !== undefined && { ReqdExctnDt: { Dt: payment.requestedExecutionDate } }),
      },
      SplmtryData: [{ PlcAndNm: EXTENSION_PLACE, Envlp: { PaymentResult: result } }],
    };
  });
  const statuses = transactions.map((transaction) => transaction.TxSts);
  const perStatus = DETAIL_ORDER.flatMap((status) => {
    const amounts = input.transactions.filter((_, k) => statuses[k] === status).map((transaction) => transaction.payment.amount);
    return amounts.length === 0 ? [] : [{ DtldNbOfTxs: String(amounts.length), DtldSts: status, DtldCtrlSum: sumDecimals(amounts) }];
  });
  return {
    Document: {
      FIToFIPmtStsRpt: {
        GrpHdr: { MsgId: input.messageId, CreDtTm: new Date(input.createdAtMs).toISOString() },
        OrgnlGrpInfAndSts: [
          {
            OrgnlMsgId: input.original.msgId,
            OrgnlMsgNmId: PAIN001_MESSAGE_NAME,
            OrgnlCreDtTm: input.original.creDtTm,
            OrgnlNbOfTxs: input.original.nbOfTxs,
            ...(input.original.ctrlSum !== undefined && { OrgnlCtrlSum: input.original.ctrlSum }),
            GrpSts: groupStatusOf(statuses),
            NbOfTxsPerSts: perStatus,
          },
        ],
        TxInfAndSts: transactions,
      },
    },
  };
}

/**
 * The report for a mapped pain.001 and its results, in the order of mapping.transfers: the glue the
 * service calls after processing every transfer.
 */
export function buildPacs002ForMapping(
  mapping: Pain001Mapping,
  results: readonly ReportedResult[],
  report: { messageId: string; createdAtMs: number; causes?: ReadonlyArray<RejectionCause | undefined> },
): Pacs002Document {
  if (results.length !== mapping.transfers.length) throw new RangeError(`${results.length} results for ${mapping.transfers.length} transfers`);
  return buildPacs002({
    messageId: report.messageId,
    createdAtMs: report.createdAtMs,
    original: mapping,
    transactions: mapping.transfers.map((transfer, k) => {
      const cause = report.causes?.[k];
      return { origin: transfer.origin, payment: transfer.payment, result: results[k] as ReportedResult, ...(cause !== undefined && { cause }) };
    }),
  });
}

function unreachable(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
