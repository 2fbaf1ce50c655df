export type { NativePayment, PaymentResult, PaymentStatus } from './payment.js';
export { AGENT_REFERENCE_PROBLEM, isAgentReference } from './payment.js';
export type { CallbackAttemptOutcome, CallbackState, CallbackStep } from '../callbacks/domain/schedule.js';
export {
  CALLBACK_DELAYS_MS,
  CALLBACK_MAX_ATTEMPTS,
  checkCallbackUrl,
  classifyCallbackOutcome,
  describeCallbackOutcome,
  nextCallbackStep,
} from '../callbacks/domain/schedule.js';
export type {
  Ap2Amount,
  Ap2Constraint,
  Ap2MandateContent,
  Ap2MandateFailure,
  Ap2MandateFailureReason,
  Ap2MandateMatch,
  Ap2MandateType,
  Ap2Merchant,
  Ap2SettlementQuote,
  Ap2SettlementTerms,
  ConstraintOutcome,
  PresentedDisclosure,
} from '../agent/domain/ap2-mandate.js';
export {
  AP2_MANDATE_FAILURES,
  AP2_MANDATE_TYPES,
  AP2_SD_ALGORITHM,
  AP2_SIGNING_ALGORITHM,
  checkDisclosures,
  checkValidityWindow,
  matchMandate,
  minorUnitDigits,
  RAIL_FEE_CAP_CONSTRAINT,
  readMandateContent,
  toMinorUnits,
} from '../agent/domain/ap2-mandate.js';
// ISO 20022 in and out (decision 0022): pain.001 JSON to native payments, the pacs.002 answer.
export {
  amountProblem, controlSumProblem, decimalDigits, decimalProblem, exactJsonNumberText, fractionDigitsOf, ISO_AMOUNT_FRACTION_DIGITS,
  ISO_AMOUNT_TOTAL_DIGITS, ISO_DECIMAL_NUMBER_FRACTION_DIGITS, ISO_DECIMAL_NUMBER_TOTAL_DIGITS, MAX_DECIMAL_TEXT_LENGTH,
  MAX_EXACT_JSON_NUMBER_DIGITS, canonicalDecimal, sameDecimal, sumDecimals, type DecimalDigits,
} from '../integration/domain/iso-decimal.js';
export {
  creditorLeiOf, mapPain001, MAX_140_TEXT, MAX_PAIN001_TRANSACTIONS, MAX_REMITTANCE_INFO_LENGTH, MAX_USTRD_LINES, NOT_PROVIDED,
  PAIN001_MESSAGE_NAME, PAIN001_SETTLEMENT_ASSET, requestedExecutionDateOf, tmsReferenceOf, type IsoIssue, type Pain001Account,
  type Pain001Amount, type Pain001Body, type Pain001GroupHeader, type Pain001Mapping, type Pain001Options, type Pain001Outcome,
  type Pain001Party, type Pain001PaymentInformation, type Pain001Transaction, type Pain001Transfer, type Pain001TransferOrigin,
} from '../integration/domain/pain001.js';
export {
  additionalInfoOf, buildPacs002, buildPacs002ForMapping, EXTENSION_PLACE, groupStatusOf, MAX_105_TEXT, MAX_ADDITIONAL_INFO,
  MAX_REPORT_MESSAGE_ID_LENGTH, REASON_OF_CAUSE, rejectionCauseOf, transactionStatusOf, type GroupStatusCode, type Pacs002Document,
  type Pacs002Input, type Pacs002StatusReason, type Pacs002SupplementaryData, type Pacs002Transaction, type RejectionCause,
  type ReportedResult, type ReportedTransaction, type StatusReasonCode, type TransactionStatusCode,
} from '../integration/domain/pacs002.js';
export type { AgentAttestation, AgentMandateDecision, AgentMandateRule, AgentMandateTerms, AgentRefusalReason, AgentSettlementRequest, AgentVerificationView, RuleViolation } from '../agent/domain/mandate-check.js';
export { AGENT_MANDATE_RULES, agentVerdictOf, checkAgentMandate } from '../agent/domain/mandate-check.js';
export type { Ap2CapabilityData, Ap2CapabilityDocument } from '../agent/domain/ap2-capabilities.js';
export { buildAp2Capabilities } from '../agent/domain/ap2-capabilities.js';
// The native payment's flow (decision 0025): transitions, USDC amounts, the attestation.
export type { AmlOutcome, FlowStep, ResultFrame, SettlementOutcome, VopOutcome } from './payment-flow.js';
export {
  canTransition, complianceOf, finalResult, isFinalStatus, PAYMENT_TRANSITIONS, pendingResult, USDC_DECIMALS, usdcAmountOf, usdcTextOfUnits, usdcUnitsOf,
} from './payment-flow.js';
export { usdcAmountAtUnitsPerUsd, usdcUnitsAtUnitsPerUsd } from './fx-conversion.js';
// A payment left PENDING by a stopped process (decision 0039).
export type { RecoveryDelays, SettlementOnChain, SettlingRecord } from '../recovery/domain/rules.js';
export { recoverableFrom, recoveredStep } from '../recovery/domain/rules.js';
// Whose money an agent settles (decision 0049): its owner's deposits.
export type { AgentFunds, Deposit, DepositRules, Funder, TransferLog } from '../agent/domain/funds.js';
export { agentFundsOf, depositsIn, fundingWalletMessage, fundsCover } from '../agent/domain/funds.js';
