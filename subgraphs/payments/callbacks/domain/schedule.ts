/**
 * The payment callback's retry schedule and what an attempt's outcome means (spec §6: "immediate,
 * after 5 seconds, after 30 seconds, after 5 minutes; 4 attempts in total"). Pure: the clock and
 * the outcome are passed in. docs/webhooks.md and the payment-callbacks decision explain the choices.
 */

/**
 * Wait before each attempt, by its 0-based number: attempt 0 when the callback is enqueued,
 * attempt k (k >= 1) this long after attempt k-1 ended. Attempts therefore start at 0 s, 5 s,
 * 35 s and 5 min 35 s when every answer is immediate.
 */
export const CALLBACK_DELAYS_MS: readonly number[] = [0, 5_000, 30_000, 300_000];

/** Attempts in total (spec §6). */
export const CALLBACK_MAX_ATTEMPTS = CALLBACK_DELAYS_MS.length;

export type CallbackState = 'PENDING' | 'DELIVERED' | 'FAILED';

/** What happened when one attempt was made. */
export type CallbackAttemptOutcome =
  /** The receiver answered with this HTTP status. */
  | { kind: 'response'; status: number }
  /** No answer: connection refused or reset, DNS failure, TLS failure. */
  | { kind: 'network-error'; message: string }
  /** No answer within the worker's timeout; the request was cut. */
  | { kind: 'timeout'; timeoutMs: number }
  /** Nothing was sent: the URL is not one we deliver to (scheme, private target). */
  | { kind: 'refused'; reason: string };

/**
 * Delivered, worth another attempt, or final.
 * 1. 2xx is delivered: the receiver took the body.
 * 2. Network errors, timeouts, 5xx, 408 and 429 are retried: the receiver may not have seen the
 *    body, or asked us to come back later.
 * 3. Other 4xx (and 1xx/3xx) end the callback: the receiver saw these exact bytes and refused them,
 *    so the same bytes would be refused again; redirects are not followed (a redirect could point
 *    the rail at an internal address). The payment stays readable by GET /payments/{id}.
 * 4. A refused target is final: no attempt will ever be allowed to it.
 */
export function classifyCallbackOutcome(outcome: CallbackAttemptOutcome): 'DELIVERED' | 'RETRY' | 'GIVE_UP' {
  switch (outcome.kind) {
    case 'response':
      if (outcome.status >= 200 && outcome.status <= 299) return 'DELIVERED';
      if (outcome.status >= 500 || outcome.status === 408 || outcome.status === 429) return 'RETRY';
      return 'GIVE_UP';
    case 'network-error':
    case 'timeout':
      return 'RETRY';
    case 'refused':
      return 'GIVE_UP';
    default:
      return unreachable(outcome);
  }
}

/** The row's next state after an attempt. `attemptsMade` counts the attempt just made. */
export interface CallbackStep {
  state: CallbackState;
  attemptsMade: number;
  /** When the next attempt is due; null once the state is final. */
  nextAttemptAt: Date | null;
  /** The status recorded, null when no answer came. */
  lastStatus: number | null;
  /** What went wrong, null when delivered. */
  lastError: string | null;
}

/**
 * The step after attempt number `attempt` (0-based, the attempts made before it) ended at `now`
 * with `outcome`. The 4th attempt that is not delivered makes the callback FAILED.
 */
export function nextCallbackStep(attempt: number, outcome: CallbackAttemptOutcome, now: Date): CallbackStep {
  if (!Number.isInteger(attempt) || attempt < 0 || attempt >= CALLBACK_MAX_ATTEMPTS) {
    throw new RangeError(`attempt must be an integer in [0, ${CALLBACK_MAX_ATTEMPTS - 1}], got ${attempt}`);
  }
  const attemptsMade = attempt + 1;
  const lastStatus = outcome.kind === 'response' ? outcome.status : null;
  const verdict = classifyCallbackOutcome(outcome);
  if (verdict === 'DELIVERED') return { state: 'DELIVERED', attemptsMade, nextAttemptAt: null, lastStatus, lastError: null };
  const lastError = describeCallbackOutcome(outcome);
  const delay = CALLBACK_DELAYS_MS[attemptsMade];
  if (verdict === 'GIVE_UP' || delay === undefined) return { state: 'FAILED', attemptsMade, nextAttemptAt: null, lastStatus, lastError };
  return { state: 'PENDING', attemptsMade, nextAttemptAt: new Date(now.getTime() + delay), lastStatus, lastError };
}

const MAX_ERROR_LENGTH = 200;

/** A short line for last_error: never the response body (it is not read). */
export function describeCallbackOutcome(outcome: CallbackAttemptOutcome): string {
  const text = (() => {
    switch (outcome.kind) {
      case 'response':
        return `HTTP ${outcome.status}`;
      case 'network-error':
        return `network error: ${outcome.message}`;
      case 'timeout':
        return `no answer within ${outcome.timeoutMs} ms`;
      case 'refused':
        return `target refused: ${outcome.reason}`;
      default:
        return unreachable(outcome);
    }
  })();
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

/**
 * Whether a callback URL may be used at all, before any name is resolved: http or https, a host,
 * no user name or password (they would be sent to the receiver in clear and logged), at most
 * 2048 characters. Whether its host is a private address is the worker's check, at connection time.
 */
export function checkCallbackUrl(raw: string): { ok: true; url: URL } | { ok: false; reason: string } {
  if (raw.length > 2048) return { ok: false, reason: 'URL longer than 2048 characters' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: 'scheme must be http or https' };
  if (!url.hostname) return { ok: false, reason: 'no host' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL' };
  return { ok: true, url };
}

function unreachable(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
