import { z } from 'zod';

// Response fragments every family of the fees subgraph uses (their REST paths' serialisers and OpenAPI documents).

export const timestamp = z.string().describe('ISO 8601 date-time');

/** The error body of both services, every error under their prefixes included (Document 1 §2; decision 0003). */
export const quoteErrorSchema = z.object({
  error: z.string().describe('What is wrong with the request'),
  example: z.record(z.string(), z.unknown()).describe('A valid request'),
});

/** True when each of A and B is assignable to the other. */
export type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when T is `true`: a type-level assertion. */
export type Assert<T extends true> = T;
