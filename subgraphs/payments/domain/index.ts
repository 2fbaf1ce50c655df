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
