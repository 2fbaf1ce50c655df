export type { NativePayment, PaymentResult, PaymentStatus } from './payment.js';
export type { CallbackAttemptOutcome, CallbackState, CallbackStep } from './callback-schedule.js';
export {
  CALLBACK_DELAYS_MS,
  CALLBACK_MAX_ATTEMPTS,
  checkCallbackUrl,
  classifyCallbackOutcome,
  describeCallbackOutcome,
  nextCallbackStep,
} from './callback-schedule.js';
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
} from './ap2-mandate.js';
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
} from './ap2-mandate.js';
