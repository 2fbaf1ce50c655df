// ISO 20022 in and out (decision 0022): pain.001 JSON to native payments, the pacs.002 answer, and
// the decimal rules of their amounts.
export {
  amountProblem, canonicalDecimal, controlSumProblem, type DecimalDigits,
decimalDigits, decimalProblem, exactJsonNumberText, fractionDigitsOf, ISO_AMOUNT_FRACTION_DIGITS,
  ISO_AMOUNT_TOTAL_DIGITS, ISO_DECIMAL_NUMBER_FRACTION_DIGITS, ISO_DECIMAL_NUMBER_TOTAL_DIGITS, MAX_DECIMAL_TEXT_LENGTH,
  MAX_EXACT_JSON_NUMBER_DIGITS, sameDecimal, sumDecimals, } from './iso-decimal.js';
export {
  additionalInfoOf, buildPacs002, buildPacs002ForMapping, EXTENSION_PLACE, type GroupStatusCode, groupStatusOf, MAX_105_TEXT, MAX_ADDITIONAL_INFO,
  MAX_REPORT_MESSAGE_ID_LENGTH, type Pacs002Document,
  type Pacs002Input, type Pacs002StatusReason, type Pacs002SupplementaryData, type Pacs002Transaction, REASON_OF_CAUSE, type RejectionCause,
rejectionCauseOf,   type ReportedResult, type ReportedTransaction, type StatusReasonCode, type TransactionStatusCode,
transactionStatusOf, } from './pacs002.js';
export {
  creditorLeiOf, type IsoIssue, mapPain001, MAX_140_TEXT, MAX_PAIN001_TRANSACTIONS, MAX_REMITTANCE_INFO_LENGTH, MAX_USTRD_LINES, NOT_PROVIDED,
  PAIN001_MESSAGE_NAME, PAIN001_SETTLEMENT_ASSET, type Pain001Account,
  type Pain001Amount, type Pain001Body, type Pain001GroupHeader, type Pain001Mapping, type Pain001Options, type Pain001Outcome,
  type Pain001Party, type Pain001PaymentInformation, type Pain001Transaction, type Pain001Transfer, type Pain001TransferOrigin,
requestedExecutionDateOf, tmsReferenceOf, } from './pain001.js';
