// ISO 20022 in and out (decision 0022): pain.001 JSON to native payments, the pacs.002 answer, and
// the decimal rules of their amounts.
export {
  amountProblem, controlSumProblem, decimalDigits, decimalProblem, exactJsonNumberText, fractionDigitsOf, ISO_AMOUNT_FRACTION_DIGITS,
  ISO_AMOUNT_TOTAL_DIGITS, ISO_DECIMAL_NUMBER_FRACTION_DIGITS, ISO_DECIMAL_NUMBER_TOTAL_DIGITS, MAX_DECIMAL_TEXT_LENGTH,
  MAX_EXACT_JSON_NUMBER_DIGITS, canonicalDecimal, sameDecimal, sumDecimals, type DecimalDigits,
} from './iso-decimal.js';
export {
  creditorLeiOf, mapPain001, MAX_140_TEXT, MAX_PAIN001_TRANSACTIONS, MAX_REMITTANCE_INFO_LENGTH, MAX_USTRD_LINES, NOT_PROVIDED,
  PAIN001_MESSAGE_NAME, PAIN001_SETTLEMENT_ASSET, requestedExecutionDateOf, tmsReferenceOf, type IsoIssue, type Pain001Account,
  type Pain001Amount, type Pain001Body, type Pain001GroupHeader, type Pain001Mapping, type Pain001Options, type Pain001Outcome,
  type Pain001Party, type Pain001PaymentInformation, type Pain001Transaction, type Pain001Transfer, type Pain001TransferOrigin,
} from './pain001.js';
export {
  additionalInfoOf, buildPacs002, buildPacs002ForMapping, EXTENSION_PLACE, groupStatusOf, MAX_105_TEXT, MAX_ADDITIONAL_INFO,
  MAX_REPORT_MESSAGE_ID_LENGTH, REASON_OF_CAUSE, rejectionCauseOf, transactionStatusOf, type GroupStatusCode, type Pacs002Document,
  type Pacs002Input, type Pacs002StatusReason, type Pacs002SupplementaryData, type Pacs002Transaction, type RejectionCause,
  type ReportedResult, type ReportedTransaction, type StatusReasonCode, type TransactionStatusCode,
} from './pacs002.js';
