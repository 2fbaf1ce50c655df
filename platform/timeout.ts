import { AppError, InfrastructureError } from './errors.js';

/** Rejects when `work` has not settled within `milliseconds`; the work itself is left to finish or fail. */
export function withTimeout<T>(work: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Settles like `work`, or rejects with an InfrastructureError naming `operation` once `timeoutMs`
 * has passed. Every failure is wrapped: the message names the operation only, the driver's error
 * (with its SQL text and parameters) is kept as `cause` for the log, which withholds that text.
 * An AppError is the domain's own answer (a transaction refusing its work: a used quote) and
 * passes as it is.
 */
export function boundedCall<T>(work: Promise<T>, timeoutMs: number, operation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new InfrastructureError(`${operation} (no answer within ${timeoutMs} ms)`, new Error(`timed out after ${timeoutMs} ms`))), timeoutMs);
  });
  const wrapped = work.catch((error: unknown) => {
    throw error instanceof InfrastructureError || error instanceof AppError ? error : new InfrastructureError(operation, error);
  });
  return Promise.race([wrapped, timeout]).finally(() => clearTimeout(timer));
}
