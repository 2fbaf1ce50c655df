// The payment callback's schedule and URL rule (decision 0024).
export type { CallbackAttemptOutcome, CallbackState, CallbackStep } from './schedule.js';
export { CALLBACK_DELAYS_MS, CALLBACK_MAX_ATTEMPTS, checkCallbackUrl, classifyCallbackOutcome, describeCallbackOutcome, nextCallbackStep } from './schedule.js';
