import { describe, expect, it } from 'vitest';
import { CALLBACK_MAX_ATTEMPTS, type CallbackAttemptOutcome, checkCallbackUrl, classifyCallbackOutcome, nextCallbackStep } from './index.js';

const T0 = new Date('2026-11-22T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const failure: CallbackAttemptOutcome = { kind: 'response', status: 503 };

describe('callback schedule', () => {
  it('has 4 attempts in total (spec §6)', () => {
    expect(CALLBACK_MAX_ATTEMPTS).toBe(4);
  });

  // Each attempt ends at the time the previous step scheduled it: 0, then +5 s, +30 s, +5 min.
  it.each([
    // attempt 0 at 0 s fails -> attempt 1 due at 0 + 5 000 ms
    { attempt: 0, now: 0, state: 'PENDING', next: 5_000 },
    // attempt 1 at 5 s fails -> attempt 2 due at 5 000 + 30 000 = 35 000 ms
    { attempt: 1, now: 5_000, state: 'PENDING', next: 35_000 },
    // attempt 2 at 35 s fails -> attempt 3 due at 35 000 + 300 000 = 335 000 ms (5 min 35 s)
    { attempt: 2, now: 35_000, state: 'PENDING', next: 335_000 },
    // attempt 3 (the 4th) fails -> FAILED, nothing due
    { attempt: 3, now: 335_000, state: 'FAILED', next: null },
  ])('attempt $attempt failing at $now ms -> $state, next at $next ms', ({ attempt, now, state, next }) => {
    const step = nextCallbackStep(attempt, failure, at(now));
    expect(step).toEqual({
      state,
      attemptsMade: attempt + 1,
      nextAttemptAt: next === null ? null : at(next),
      lastStatus: 503,
      lastError: 'HTTP 503',
    });
  });

  it.each([0, 1, 2, 3])('a 2xx at attempt %i is DELIVERED with nothing due', (attempt) => {
    expect(nextCallbackStep(attempt, { kind: 'response', status: 204 }, T0)).toEqual({
      state: 'DELIVERED',
      attemptsMade: attempt + 1,
      nextAttemptAt: null,
      lastStatus: 204,
      lastError: null,
    });
  });

  it.each<[CallbackAttemptOutcome, 'DELIVERED' | 'RETRY' | 'GIVE_UP']>([
    [{ kind: 'response', status: 200 }, 'DELIVERED'],
    [{ kind: 'response', status: 299 }, 'DELIVERED'],
    [{ kind: 'response', status: 500 }, 'RETRY'],
    [{ kind: 'response', status: 599 }, 'RETRY'],
    [{ kind: 'response', status: 429 }, 'RETRY'],
    [{ kind: 'response', status: 408 }, 'RETRY'],
    [{ kind: 'response', status: 400 }, 'GIVE_UP'],
    [{ kind: 'response', status: 401 }, 'GIVE_UP'],
    [{ kind: 'response', status: 404 }, 'GIVE_UP'],
    [{ kind: 'response', status: 302 }, 'GIVE_UP'],
    [{ kind: 'response', status: 101 }, 'GIVE_UP'],
    [{ kind: 'network-error', message: 'ECONNREFUSED' }, 'RETRY'],
    [{ kind: 'timeout', timeoutMs: 1000 }, 'RETRY'],
    [{ kind: 'refused', reason: 'private address' }, 'GIVE_UP'],
  ])('%j -> %s', (outcome, verdict) => {
    expect(classifyCallbackOutcome(outcome)).toBe(verdict);
  });

  it('a 4xx other than 408/429 ends the callback at the first attempt', () => {
    expect(nextCallbackStep(0, { kind: 'response', status: 400 }, T0)).toMatchObject({ state: 'FAILED', attemptsMade: 1, nextAttemptAt: null, lastStatus: 400 });
  });

  it('a timeout and a network error keep no status and say what happened', () => {
    expect(nextCallbackStep(0, { kind: 'timeout', timeoutMs: 250 }, T0)).toMatchObject({ lastStatus: null, lastError: 'no answer within 250 ms', nextAttemptAt: at(5_000) });
    const long = nextCallbackStep(1, { kind: 'network-error', message: 'x'.repeat(1000) }, T0);
    expect(long.lastError?.length).toBeLessThanOrEqual(201);
  });

  it.each([-1, 4, 1.5, Number.NaN])('refuses attempt number %s', (attempt) => {
    expect(() => nextCallbackStep(attempt, failure, T0)).toThrow(RangeError);
  });
});

describe('checkCallbackUrl', () => {
  it.each([
    ['https://tms.example.com/hooks/rail', true],
    ['http://127.0.0.1:8080/cb', true],
    ['ftp://example.com/x', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['https://user:pass@example.com/', false],
    ['not a url', false],
    [`https://example.com/${'a'.repeat(2100)}`, false],
  ])('%s -> %s', (raw, ok) => {
    expect(checkCallbackUrl(raw).ok).toBe(ok);
  });
});
