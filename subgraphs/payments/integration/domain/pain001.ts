import { AGENT_REFERENCE_PROBLEM, isAgentReference, type NativePayment } from '../../domain/index.js';
import { amountProblem, fractionDigitsOf, sameDecimal, sumDecimals } from './iso-decimal.js';

/**
 * pain.001 (CustomerCreditTransferInitiationV09, JSON encoding) to native payments: the mapping
 * table of spec §2, for EVERY CdtTrfTxInf of EVERY PmtInf, in document order. Decision 0022 records
 * each choice with its ISO 20022 source.
 *
 * The document reaching mapPain001 has passed the edge schema (../inputs.ts: element names, lengths,
 * patterns, cardinalities); this module checks what spans elements (counts, control sums,
 * references unique in the message, the currency's minor unit when a table is given) and maps.
 */

/** The message definition the report refers to (pacs.002 OrgnlMsgNmId). */
export const PAIN001_MESSAGE_NAME = 'pain.001.001.09';
/** The ISO 20022 convention for "the initiating party gave no end-to-end reference". */
export const NOT_PROVIDED = 'NOTPROVIDED';
/**
 * Transactions in one pain.001: the spec's batch size (§8, 50 payments). Each transaction becomes
 * one payment processed before the answer, like a batch entry.
 */
export const MAX_PAIN001_TRANSACTIONS = 50;
/** RmtInf.Ustrd occurrences read (ISO: 0..unbounded Max140Text); joined by a line feed. */
export const MAX_USTRD_LINES = 10;
export const MAX_140_TEXT = 140;
/** Longest remittanceInfo a pain.001 can produce: every Ustrd line full, with the separators. */
export const MAX_REMITTANCE_INFO_LENGTH = MAX_USTRD_LINES * MAX_140_TEXT + (MAX_USTRD_LINES - 1);

// Element names are ISO 20022's own (XML tags of pain.001.001.09); the comment gives the message
// component or data type.

/** ActiveOrHistoricCurrencyAndAmount: Ccy attribute, value as decimal text. */
export interface Pain001Amount {
  Ccy: string;
  value: string;
}

/** PartyIdentification135 (only the elements mapped). */
export interface Pain001Party {
  Nm: string;
  Id?: { OrgId?: { LEI?: string } };
}

/** CashAccount38 identified by GenericAccountIdentification1 (Othr.Id: the wallet address). */
export interface Pain001Account {
  Id: { Othr: { Id: string } };
}

/** CreditTransferTransaction34. */
export interface Pain001Transaction {
  PmtId: { InstrId?: string; EndToEndId: string };
  Amt: { InstdAmt: Pain001Amount };
  /** BranchAndFinancialInstitutionIdentification6: the creditor's agent. */
  CdtrAgt?: { FinInstnId: { LEI?: string } };
  Cdtr: Pain001Party;
  CdtrAcct: Pain001Account;
  /** RemittanceInformation16.Ustrd, read as lines. */
  RmtInf?: { Ustrd?: string[] };
}

/** PaymentInstruction30. */
export interface Pain001PaymentInformation {
  PmtInfId: string;
  /** PaymentMethod3Code; only TRF (credit transfer) reaches the domain. */
  PmtMtd: 'TRF';
  NbOfTxs?: string;
  CtrlSum?: string;
  /** DateAndDateTime2Choice: exactly one of Dt (ISODate) and DtTm (ISODateTime). */
  ReqdExctnDt: { Dt?: string; DtTm?: string };
  Dbtr: Pain001Party;
  DbtrAcct: Pain001Account;
  CdtTrfTxInf: Pain001Transaction[];
}

/** GroupHeader85. */
export interface Pain001GroupHeader {
  MsgId: string;
  /** ISODateTime. */
  CreDtTm: string;
  /** Max15NumericText. */
  NbOfTxs: string;
  /** DecimalNumber. */
  CtrlSum?: string;
  InitgPty: { Nm?: string };
}

/** The request body: the ISO Document, and beside it our one extension, the callback URL. */
export interface Pain001Body {
  Document: { CstmrCdtTrfInitn: { GrpHdr: Pain001GroupHeader; PmtInf: Pain001PaymentInformation[] } };
  callbackUrl?: string;
}

/** A problem found in a document: where (JSON path from CstmrCdtTrfInitn, e.g. PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value) and why. */
export interface IsoIssue {
  path: string;
  message: string;
  /** The ExternalStatusReason1Code an ISO receiver would report for it, when one fits exactly. */
  reason?: string;
}

/** Where a native payment came from in the document: what the pacs.002 refers back to. */
export interface Pain001TransferOrigin {
  msgId: string;
  pmtInfId: string;
  /** 0-based positions in the document. */
  pmtInfIndex: number;
  txIndex: number;
  /** PmtId.InstrId, when given. */
  instrId?: string;
  /** PmtId.EndToEndId as sent (possibly NOTPROVIDED). */
  endToEndId: string;
  /** CdtrAgt.FinInstnId.LEI, when given (the creditor's agent, kept even when creditor.lei is the creditor's own). */
  creditorAgentLei?: string;
  /** JSON path of the transaction, e.g. PmtInf[1].CdtTrfTxInf[0]. */
  path: string;
}

export interface Pain001Transfer {
  payment: NativePayment;
  origin: Pain001TransferOrigin;
}

export interface Pain001Mapping {
  msgId: string;
  creDtTm: string;
  /** GrpHdr.NbOfTxs as sent (checked equal to transfers.length). */
  nbOfTxs: string;
  ctrlSum?: string;
  initiatingPartyName?: string;
  transfers: Pain001Transfer[];
}

export type Pain001Outcome = { ok: true; value: Pain001Mapping } | { ok: false; issues: IsoIssue[] };

export interface Pain001Options {
  /**
   * ISO 4217 minor unit of a currency (EUR 2, JPY 0 ...), or undefined when the table does not
   * know the code. When given, an amount with more fraction digits than its currency's minor unit
   * is refused, and so is an unknown currency (ISO 20022 rule CurrencyAmount on
   * ActiveOrHistoricCurrencyAndAmount). The domain holds no table: the caller passes a real one.
   */
  minorUnitsOf?: (currency: string) => number | undefined;
}

/** The settlement asset of every mapped payment: the rail settles in USDC (spec §2). */
export const PAIN001_SETTLEMENT_ASSET = 'USDC';

/**
 * tmsReference of a transaction: its EndToEndId, unless that is NOTPROVIDED; then the message id and
 * the 1-based positions of the PmtInf and of the transaction in it, e.g. `MSG-2025-0001/2/3`.
 * MsgId is unique per initiating party (ISO GroupHeader85 MsgId definition), so the reference is too.
 */
export function tmsReferenceOf(msgId: string, pmtInfIndex: number, txIndex: number, endToEndId: string): string {
  return endToEndId === NOT_PROVIDED ? `${msgId}/${pmtInfIndex + 1}/${txIndex + 1}` : endToEndId;
}

/**
 * creditor.lei: the creditor's own LEI (Cdtr.Id.OrgId.LEI) first, the creditor agent's
 * (CdtrAgt.FinInstnId.LEI) when the creditor has none.
 * 1. The VoP check compares the LEI with the wallet's registration together with Cdtr.Nm, the
 *    creditor's name; the creditor's own LEI names the same party as the name.
 * 2. The agent's LEI names the financial institution servicing the creditor's account (ISO
 *    definition of CdtrAgt); it is the right identifier only when the wallet is held by that
 *    institution (custodial), which is the case where the creditor carries no LEI of its own.
 */
export function creditorLeiOf(transaction: Pain001Transaction): string | undefined {
  return transaction.Cdtr.Id?.OrgId?.LEI ?? transaction.CdtrAgt?.FinInstnId.LEI;
}

/** ReqdExctnDt as a date: Dt, or the date part of DtTm as written (its own offset, not converted). */
export function requestedExecutionDateOf(requested: Pain001PaymentInformation['ReqdExctnDt']): string | undefined {
  return requested.Dt ?? requested.DtTm?.slice(0, 10);
}

function remittanceOf(transaction: Pain001Transaction): string | undefined {
  const lines = transaction.RmtInf?.Ustrd;
  return lines && lines.length > 0 ? lines.join('\n') : undefined;
}

function checkCounts(body: Pain001Body, issues: IsoIssue[]): void {
  const { GrpHdr: header, PmtInf: instructions } = body.Document.CstmrCdtTrfInitn;
  const amounts = instructions.flatMap((instruction) => instruction.CdtTrfTxInf.map((transaction) => transaction.Amt.InstdAmt.value));
  // 1. Group level (AM19 InvalidGroupNumberOfTransactions, AM16 InvalidGroupControlSum).
  //    Max15NumericText is compared as a number: "003" counts 3.
  if (BigInt(header.NbOfTxs) !== BigInt(amounts.length)) {
    issues.push({ path: 'GrpHdr.NbOfTxs', message: `is ${header.NbOfTxs} but the document holds ${amounts.length} transactions`, reason: 'AM19' });
  }
  // CtrlSum is the total of the individual amounts "irrespective of currencies" (ISO definition).
  const total = sumDecimals(amounts);
  if (header.CtrlSum !== undefined && !sameDecimal(header.CtrlSum, total)) {
    issues.push({ path: 'GrpHdr.CtrlSum', message: `is ${header.CtrlSum} but the instructed amounts add up to ${total}`, reason: 'AM16' });
  }
  // 2. Payment-information level (AM20 InvalidPaymentInfoNumberOfTransactions, AM17 InvalidPaymentInfoControlSum).
  instructions.forEach((instruction, i) => {
    const count = instruction.CdtTrfTxInf.length;
    if (instruction.NbOfTxs !== undefined && BigInt(instruction.NbOfTxs) !== BigInt(count)) {
      issues.push({ path: `PmtInf[${i}].NbOfTxs`, message: `is ${instruction.NbOfTxs} but the payment information holds ${count} transactions`, reason: 'AM20' });
    }
    const subtotal = sumDecimals(instruction.CdtTrfTxInf.map((transaction) => transaction.Amt.InstdAmt.value));
    if (instruction.CtrlSum !== undefined && !sameDecimal(instruction.CtrlSum, subtotal)) {
      issues.push({ path: `PmtInf[${i}].CtrlSum`, message: `is ${instruction.CtrlSum} but its instructed amounts add up to ${subtotal}`, reason: 'AM17' });
    }
  });
}

/** A transaction's instructed amount against the ISO facets and, when the caller knows them, its currency's minor units. */
function checkAmount(instructed: Pain001Amount, path: string, options: Pain001Options, issues: IsoIssue[]): void {
  const { Ccy: currency, value: amount } = instructed;
  // Defence in depth: the edge schema already holds amounts to the ISO facets.
  const problem = amountProblem(amount);
  if (problem) issues.push({ path: `${path}.Amt.InstdAmt.value`, message: problem, reason: 'AM12' });
  if (options.minorUnitsOf) {
    const minorUnits = options.minorUnitsOf(currency);
    if (minorUnits === undefined) {
      issues.push({ path: `${path}.Amt.InstdAmt.Ccy`, message: `${currency} is not an ISO 4217 currency code we know`, reason: 'AM11' });
    } else if ((fractionDigitsOf(amount) ?? 0) > minorUnits) {
      issues.push({ path: `${path}.Amt.InstdAmt.value`, message: `has more fraction digits than ${currency}'s ISO 4217 minor unit (${minorUnits})`, reason: 'CH20' });
    }
  }
}

/** One transaction of a payment information block as a native payment under its tmsReference. */
function nativePaymentOf(body: Pain001Body, instruction: Pain001PaymentInformation, transaction: Pain001Transaction, tmsReference: string, requestedExecutionDate: string | undefined): NativePayment {
  const { Ccy: currency, value: amount } = transaction.Amt.InstdAmt;
  const creditorLei = creditorLeiOf(transaction);
  const debtorLei = instruction.Dbtr.Id?.OrgId?.LEI;
  const remittanceInfo = remittanceOf(transaction);
  return {
    tmsReference,
    amount,
    currency,
    settlementAsset: PAIN001_SETTLEMENT_ASSET,
    creditor: {
      name: transaction.Cdtr.Nm,
      ...(creditorLei !== undefined && { lei: creditorLei }),
      walletAddress: transaction.CdtrAcct.Id.Othr.Id,
    },
    debtor: {
      name: instruction.Dbtr.Nm,
      ...(debtorLei !== undefined && { lei: debtorLei }),
      walletAddress: instruction.DbtrAcct.Id.Othr.Id,
    },
    ...(remittanceInfo !== undefined && { remittanceInfo }),
    ...(requestedExecutionDate !== undefined && { requestedExecutionDate }),
    ...(body.callbackUrl !== undefined && { callbackUrl: body.callbackUrl }),
  };
}

/**
 * The document's payments, or every problem found (all of them, each with its path).
 * Pure: no clock (a past execution date is the service's call), no I/O.
 */
export function mapPain001(body: Pain001Body, options: Pain001Options = {}): Pain001Outcome {
  const { GrpHdr: header, PmtInf: instructions } = body.Document.CstmrCdtTrfInitn;
  const issues: IsoIssue[] = [];
  const total = instructions.reduce((sum, instruction) => sum + instruction.CdtTrfTxInf.length, 0);
  if (total > MAX_PAIN001_TRANSACTIONS) {
    return { ok: false, issues: [{ path: 'PmtInf', message: `holds ${total} transactions; at most ${MAX_PAIN001_TRANSACTIONS} are accepted in one document` }] };
  }
  checkCounts(body, issues);

  const transfers: Pain001Transfer[] = [];
  const seen = new Map<string, string>();
  instructions.forEach((instruction, i) => {
    const requestedExecutionDate = requestedExecutionDateOf(instruction.ReqdExctnDt);
    instruction.CdtTrfTxInf.forEach((transaction, j) => {
      const path = `PmtInf[${i}].CdtTrfTxInf[${j}]`;
      checkAmount(transaction.Amt.InstdAmt, path, options, issues);
      const tmsReference = tmsReferenceOf(header.MsgId, i, j, transaction.PmtId.EndToEndId);
      const first = seen.get(tmsReference);
      // CH16, element content formally incorrect: the reference is in the settlement agent's namespace.
      if (isAgentReference(tmsReference)) issues.push({ path: `${path}.PmtId.EndToEndId`, message: `${tmsReference} ${AGENT_REFERENCE_PROBLEM}`, reason: 'CH16' });
      if (first !== undefined) {
        issues.push({ path: `${path}.PmtId.EndToEndId`, message: `${tmsReference} is already the reference of ${first}; each transaction needs its own`, reason: 'AM05' });
      } else {
        seen.set(tmsReference, path);
      }
      const payment = nativePaymentOf(body, instruction, transaction, tmsReference, requestedExecutionDate);
      const creditorAgentLei = transaction.CdtrAgt?.FinInstnId.LEI;
      transfers.push({
        payment,
        origin: {
          msgId: header.MsgId,
          pmtInfId: instruction.PmtInfId,
          pmtInfIndex: i,
          txIndex: j,
          ...(transaction.PmtId.InstrId !== undefined && { instrId: transaction.PmtId.InstrId }),
          endToEndId: transaction.PmtId.EndToEndId,
          ...(creditorAgentLei !== undefined && { creditorAgentLei }),
          path,
        },
      });
    });
  });
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      msgId: header.MsgId,
      creDtTm: header.CreDtTm,
      nbOfTxs: header.NbOfTxs,
      ...(header.CtrlSum !== undefined && { ctrlSum: header.CtrlSum }),
      ...(header.InitgPty.Nm !== undefined && { initiatingPartyName: header.InitgPty.Nm }),
      transfers,
    },
  };
}
