import { getAddress, isAddress } from 'viem';
import { z } from 'zod';
import { checkCallbackUrl } from '../callbacks/domain/index.js';
import { AGENT_REFERENCE_PROBLEM, isAgentReference, type NativePayment } from '../domain/index.js';
import {
  amountProblem,
  controlSumProblem,
  exactJsonNumberText,
  type IsoIssue,
  mapPain001,
  MAX_140_TEXT,
  MAX_DECIMAL_TEXT_LENGTH,
  MAX_PAIN001_TRANSACTIONS,
  MAX_REMITTANCE_INFO_LENGTH,
  MAX_USTRD_LINES,
  type Pain001Body,
  type Pain001Mapping,
  type Pain001Options,
} from './domain/index.js';

/**
 * Edge validation of the payment-initiation bodies (spec §2, §4; decision 0022): the native payment,
 * the pain.001 JSON document (strict where ISO 20022 is strict: element names, Max35Text /
 * Max140Text lengths in characters, patterns, cardinalities), which of the two a body is, and the
 * batch body. Every string and array is bounded before it is read.
 */

/** The spec's batch size (§8). */
export const MAX_BATCH_PAYMENTS = 50;
/** A native tmsReference: long enough for a pain.001-derived one (`<Max35Text>/<n>/<n>`). */
export const MAX_TMS_REFERENCE_LENGTH = 64;

// eslint-disable-next-line no-control-regex -- the control characters are what this refuses
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;

/**
 * ISO MaxNText: 1 to N characters. XML Schema counts characters (code points), not UTF-16 units, so
 * 35 emoji are a valid Max35Text; the UTF-16 bound (2N) is checked first so a huge string is refused
 * before it is split. Control characters are refused (XML 1.0 forbids most of them in content).
 */
function isoText(max: number) {
  return z
    .string({ error: 'must be a string' })
    .min(1, 'must not be empty')
    .max(2 * max, { message: `must be at most ${max} characters`, abort: true })
    .refine((value) => [...value].length <= max, `must be at most ${max} characters`)
    .refine((value) => !CONTROL_CHARACTERS.test(value), 'must not contain control characters');
}

/** A party's name: Max140Text with something besides spaces (VoP compares it). */
const partyName = isoText(MAX_140_TEXT).refine((value) => value.trim().length > 0, 'must not be blank');

/** LEIIdentifier: the ISO 20022 pattern [A-Z0-9]{18,18}[0-9]{2,2}; check digits are verified by compliance (VoP). */
const lei = z
  .string({ error: 'must be a string' })
  .max(20, { message: 'must be an LEI: 20 characters', abort: true })
  .regex(/^[A-Z0-9]{18}[0-9]{2}$/, 'must be an LEI: 18 capital letters or digits and 2 check digits');

/** ActiveOrHistoricCurrencyCode: [A-Z]{3,3} (ISO 4217 alphabetic code). */
const currencyCode = z
  .string({ error: 'must be a string' })
  .max(3, { message: 'must be an ISO 4217 code of 3 capital letters', abort: true })
  .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code of 3 capital letters');

/** The wallet (Othr.Id / walletAddress): an EVM address, EIP-55 checksum when mixed-case, written in its checksum form. */
const walletAddress = z
  .string({ error: 'must be a string' })
  .max(42, { message: 'must be an EVM address (0x and 40 hex digits)', abort: true })
  .refine((value) => isAddress(value, { strict: true }), 'must be an EVM address (0x and 40 hex digits, EIP-55 checksum when mixed-case)')
  .transform((value) => getAddress(value));

/** A calendar date that exists, from the digits of an ISO 8601 date. */
function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** ISODate: YYYY-MM-DD, a day of the calendar. */
const isoDate = z
  .string({ error: 'must be a string' })
  .max(10, { message: 'must be a date YYYY-MM-DD', abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((value) => isCalendarDate(Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))), 'must be a day of the calendar');

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))?$/;

/** ISODateTime (xs:dateTime): a calendar day, 00:00:00 to 23:59:59, fraction and offset (at most 14:00) optional. */
const isoDateTime = z
  .string({ error: 'must be a string' })
  .max(40, { message: 'must be a date and time such as 2025-03-14T09:30:00Z', abort: true })
  .refine((value) => {
    const match = ISO_DATE_TIME.exec(value);
    if (!match) return false;
    const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
    return (
      isCalendarDate(year ?? 0, month ?? 0, day ?? 0) &&
      (hour ?? 24) <= 23 &&
      (minute ?? 60) <= 59 &&
      (second ?? 60) <= 59 &&
      (offsetMinutes ?? 60) <= 59 &&
      (offsetHours ?? 15) * 60 + (offsetMinutes ?? 0) <= 14 * 60
    );
  }, 'must be a date and time such as 2025-03-14T09:30:00Z');

/** Max15NumericText: [0-9]{1,15}. */
const max15NumericText = z
  .string({ error: 'must be a string of digits' })
  .max(15, { message: 'must be at most 15 digits', abort: true })
  .regex(/^[0-9]{1,15}$/, 'must be 1 to 15 digits');

/**
 * A decimal element as text: a string, or a JSON number whose text is certainly the one sent (at
 * most 15 significant digits, no exponent). Then the facets, checked by `problemOf`.
 */
function decimalValue(problemOf: (text: string) => string | undefined) {
  return z
    .union([z.string().max(MAX_DECIMAL_TEXT_LENGTH, `must be at most ${MAX_DECIMAL_TEXT_LENGTH} characters`), z.number()], {
      error: 'must be a decimal string such as "1250.50"',
    })
    .transform((value, context) => {
      const text = typeof value === 'number' ? exactJsonNumberText(value) : value;
      if (text === undefined) {
        context.addIssue({ code: 'custom', message: 'must be sent as a decimal string such as "1250.50": this JSON number cannot be read exactly' });
        return z.NEVER;
      }
      const problem = problemOf(text);
      if (problem) {
        context.addIssue({ code: 'custom', message: problem });
        return z.NEVER;
      }
      return text;
    });
}

/** A callback URL (spec §6), with the callback module's own rule. */
const callbackUrl = z
  .string({ error: 'must be a string' })
  .max(2048, { message: 'must be at most 2048 characters', abort: true })
  .superRefine((value, context) => {
    const checked = checkCallbackUrl(value);
    if (!checked.ok) context.addIssue({ code: 'custom', message: `must be an http(s) URL: ${checked.reason}` });
  });

/** A quote id of the fees subgraph (decision 0001): `srq-<digits>-<24 to 64 hex>`. */
const quoteId = z
  .string({ error: 'must be a string' })
  .max(96, { message: 'must be a quote id', abort: true })
  .regex(/^srq-\d{1,16}-[0-9a-f]{24,64}$/, 'must be a quote id srq-<digits>-<hex>');

/**
 * An array whose length is checked before any element is read: a million-element array is refused
 * at once, not after a million element checks.
 */
function boundedArray<T extends z.ZodType>(element: T, max: number, what: string) {
  return z
    .array(z.unknown(), { error: `must be an array of ${what}` })
    .min(1, `must hold at least one of ${what}`)
    .max(max, `must hold at most ${max} ${what}`)
    .pipe(z.array(element));
}

/**
 * An ISO message component: the elements we map with their schemas, the other elements of the ISO
 * definition accepted and not read (ignored), any other name refused (strict).
 */
function isoComponent<S extends z.ZodRawShape, const I extends readonly string[]>(shape: S, ignored: I) {
  // The one cast of this file: Object.fromEntries cannot type the keys it builds.
  const ignoredShape = Object.fromEntries(ignored.map((name) => [name, z.unknown().optional()])) as { [K in I[number]]: z.ZodOptional<z.ZodUnknown> };
  return z.strictObject({ ...ignoredShape, ...shape });
}

// ---------------------------------------------------------------------------------------------
// pain.001.001.09 (CustomerCreditTransferInitiationV09). Ignored lists are the ISO elements of each
// component that the mapping does not use.

/** PartyIdentification135: Nm and Id.OrgId.LEI are read. */
const party = isoComponent(
  {
    Nm: partyName,
    Id: isoComponent({ OrgId: isoComponent({ LEI: lei.optional() }, ['AnyBIC', 'Othr']).optional() }, ['PrvtId']).optional(),
  },
  ['PstlAdr', 'CtryOfRes', 'CtctDtls'],
);

/** CashAccount38 identified by Othr.Id (GenericAccountIdentification1), the wallet address. */
const walletAccount = isoComponent(
  {
    Id: isoComponent(
      {
        Othr: isoComponent({ Id: walletAddress }, ['SchmeNm', 'Issr']),
        IBAN: z.never({ error: 'an IBAN cannot be settled on the rail: give the wallet address in Id.Othr.Id' }).optional(),
      },
      [],
    ),
  },
  ['Tp', 'Ccy', 'Nm', 'Prxy'],
);

const remittanceLine = isoText(MAX_140_TEXT);

/** CreditTransferTransaction34. */
const creditTransferTransaction = isoComponent(
  {
    PmtId: isoComponent({ InstrId: isoText(35).optional(), EndToEndId: isoText(35) }, ['UETR']),
    Amt: isoComponent(
      {
        InstdAmt: z.strictObject({ Ccy: currencyCode, value: decimalValue(amountProblem) }),
        EqvtAmt: z.never({ error: 'an equivalent amount is not accepted: give the instructed amount in InstdAmt' }).optional(),
      },
      [],
    ),
    CdtrAgt: isoComponent({ FinInstnId: isoComponent({ LEI: lei.optional() }, ['BICFI', 'ClrSysMmbId', 'Nm', 'PstlAdr', 'Othr']) }, ['BrnchId']).optional(),
    Cdtr: party,
    CdtrAcct: walletAccount,
    RmtInf: isoComponent(
      {
        Ustrd: z
          .union([remittanceLine, z.array(remittanceLine).min(1).max(MAX_USTRD_LINES)], {
            error: `must be a text of at most ${MAX_140_TEXT} characters, or an array of 1 to ${MAX_USTRD_LINES} such texts`,
          })
          .transform((value) => (typeof value === 'string' ? [value] : value))
          .optional(),
      },
      ['Strd'],
    ).optional(),
  },
  [
    'PmtTpInf',
    'XchgRateInf',
    'ChrgBr',
    'ChqInstr',
    'UltmtDbtr',
    'IntrmyAgt1',
    'IntrmyAgt1Acct',
    'IntrmyAgt2',
    'IntrmyAgt2Acct',
    'IntrmyAgt3',
    'IntrmyAgt3Acct',
    'CdtrAgtAcct',
    'UltmtCdtr',
    'InstrForCdtrAgt',
    'InstrForDbtrAgt',
    'Purp',
    'RgltryRptg',
    'Tax',
    'RltdRmtInf',
    'SplmtryData',
  ],
);

/** PaymentInstruction30. */
const paymentInstruction = isoComponent(
  {
    PmtInfId: isoText(35),
    PmtMtd: z.literal('TRF', { error: 'must be TRF: only credit transfers settle on the rail (CHK and TRA are refused)' }),
    NbOfTxs: max15NumericText.optional(),
    CtrlSum: decimalValue(controlSumProblem).optional(),
    ReqdExctnDt: z
      .strictObject({ Dt: isoDate.optional(), DtTm: isoDateTime.optional() })
      .refine((value) => (value.Dt === undefined) !== (value.DtTm === undefined), 'must hold exactly one of Dt and DtTm'),
    Dbtr: party,
    DbtrAcct: walletAccount,
    CdtTrfTxInf: boundedArray(creditTransferTransaction, MAX_PAIN001_TRANSACTIONS, 'credit transfer transactions'),
  },
  ['BtchBookg', 'PmtTpInf', 'PoolgAdjstmntDt', 'DbtrAgt', 'DbtrAgtAcct', 'InstrForDbtrAgt', 'UltmtDbtr', 'ChrgBr', 'ChrgsAcct', 'ChrgsAcctAgt'],
);

/** GroupHeader85. */
const groupHeader = isoComponent(
  {
    MsgId: isoText(35),
    CreDtTm: isoDateTime,
    NbOfTxs: max15NumericText,
    CtrlSum: decimalValue(controlSumProblem).optional(),
    InitgPty: isoComponent({ Nm: isoText(MAX_140_TEXT).optional() }, ['PstlAdr', 'Id', 'CtryOfRes', 'CtctDtls']),
  },
  ['Authstn', 'FwdgAgt'],
);

/** The pain.001 body: {Document: {CstmrCdtTrfInitn}}, and beside Document our callbackUrl. */
export const pain001BodySchema = z.strictObject({
  Document: z.strictObject({
    CstmrCdtTrfInitn: isoComponent({ GrpHdr: groupHeader, PmtInf: boundedArray(paymentInstruction, MAX_PAIN001_TRANSACTIONS, 'payment information blocks') }, ['SplmtryData']),
  }),
  callbackUrl: callbackUrl.optional(),
});

// ---------------------------------------------------------------------------------------------
// Native payment (spec §2).

export const nativePaymentBodySchema = z.strictObject({
  tmsReference: isoText(MAX_TMS_REFERENCE_LENGTH).refine((value) => !isAgentReference(value), AGENT_REFERENCE_PROBLEM),
  amount: z
    .string({ error: 'must be a decimal string such as "1250.50"' })
    .max(MAX_DECIMAL_TEXT_LENGTH, { message: `must be at most ${MAX_DECIMAL_TEXT_LENGTH} characters`, abort: true })
    .superRefine((value, context) => {
      const problem = amountProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  currency: currencyCode,
  settlementAsset: z.literal('USDC', { error: 'must be USDC, the asset the rail settles in' }).default('USDC'),
  creditor: z.strictObject({ name: partyName, lei: lei.optional(), walletAddress, accountRef: isoText(34).optional() }),
  debtor: z.strictObject({ name: partyName, lei: lei.optional(), walletAddress }),
  remittanceInfo: isoText(MAX_REMITTANCE_INFO_LENGTH).optional(),
  requestedExecutionDate: isoDate.optional(),
  callbackUrl: callbackUrl.optional(),
  quoteId: quoteId.optional(),
});

/** The batch body (spec §4): {payments: 1 to 50 native payments}; 51 is refused before any is read. */
export const batchBodySchema = z.strictObject({
  payments: boundedArray(nativePaymentBodySchema, MAX_BATCH_PAYMENTS, 'payments'),
});

/** Either body, for the OpenAPI document; validate with readPaymentInitiation for the precise issues. */
export const paymentInitiationBodySchema = z.union([pain001BodySchema, nativePaymentBodySchema]);

// The schemas' outputs are the domain's types (checked at compile time).
type Assignable<T extends U, U> = T;
export type Pain001BodyInput = Assignable<z.output<typeof pain001BodySchema>, Pain001Body>;
export type NativePaymentBody = Assignable<z.output<typeof nativePaymentBodySchema>, NativePayment>;
export type BatchBody = z.output<typeof batchBodySchema>;

// ---------------------------------------------------------------------------------------------
// Reading a body.

const DOCUMENT_ROOT = ['Document', 'CstmrCdtTrfInitn'];

/**
 * A zod path as a JSON path: `PmtInf[1].CdtTrfTxInf[0].Amt.InstdAmt.value`. Inside a pain.001 it is
 * written from CstmrCdtTrfInitn (as ISO usage guidelines write element paths); above it in full.
 */
export function jsonPathOf(path: readonly PropertyKey[]): string {
  const inside = path.length > DOCUMENT_ROOT.length && DOCUMENT_ROOT.every((name, k) => path[k] === name);
  const rest = inside ? path.slice(DOCUMENT_ROOT.length) : path;
  return rest.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

function issuesOf(error: z.ZodError): IsoIssue[] {
  return error.issues.flatMap((issue) => {
    // An unknown element is named by its own path, so the message points at it.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: jsonPathOf([...issue.path, key]), message: 'is not an element of this message (unknown field)' }));
    }
    return [{ path: jsonPathOf(issue.path) || '(body)', message: issue.message }];
  });
}

export type PaymentInitiation = { kind: 'native'; payment: NativePayment } | { kind: 'pain001'; mapping: Pain001Mapping };

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; issues: IsoIssue[] };

/** A body holding its own `Document` member is a pain.001 (own: a prototype's member does not count). */
export function isPain001Body(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'Document');
}

/**
 * The payments a POST /payments/initiate body asks for: one native payment, or a pain.001 mapped to
 * its payments (every transaction of every PmtInf). Issues name the JSON path of each problem.
 */
export function readPaymentInitiation(body: unknown, options: Pain001Options = {}): ReadOutcome<PaymentInitiation> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, issues: [{ path: '(body)', message: 'must be a JSON object: a native payment or a pain.001 document' }] };
  }
  if (isPain001Body(body)) {
    const parsed = pain001BodySchema.safeParse(body);
    if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error) };
    const mapped = mapPain001(parsed.data, options);
    return mapped.ok ? { ok: true, value: { kind: 'pain001', mapping: mapped.value } } : mapped;
  }
  const parsed = nativePaymentBodySchema.safeParse(body);
  return parsed.success ? { ok: true, value: { kind: 'native', payment: parsed.data } } : { ok: false, issues: issuesOf(parsed.error) };
}

/** The payments of a batch body, in order. */
export function readBatch(body: unknown): ReadOutcome<NativePayment[]> {
  const parsed = batchBodySchema.safeParse(body);
  return parsed.success ? { ok: true, value: parsed.data.payments } : { ok: false, issues: issuesOf(parsed.error) };
}

// ---------------------------------------------------------------------------------------------
// Paths and queries of the integration API (decision 0025).

/** GET /payments/:railPaymentId; an id of another form is answered 404 without a query. */
export const paymentParamsSchema = z.strictObject({ railPaymentId: z.string().max(64, 'must be at most 64 characters') });
/** An institution's id (decision 0050): `inst_` and a token, or one migration 0023 made. */
const institutionId = z
  .string()
  .min(1)
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an institution id (letters, digits, _ and -)');
/**
 * GET /payments?tmsReference=[&institution=]. `institution` is for the admin key, whose lookup is
 * ambiguous when several institutions use the reference; an institution key naming another
 * institution finds nothing (decision 0050).
 */
export const paymentQuerySchema = z.strictObject({ tmsReference: isoText(MAX_TMS_REFERENCE_LENGTH), institution: institutionId.optional() });
/** GET /rates/:currency. */
export const rateParamsSchema = z.strictObject({ currency: currencyCode });
