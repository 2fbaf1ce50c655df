import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError, type ErrorCode } from './errors.js';
import { toAppError } from './http.js';

/**
 * Puts our error catalog's code in extensions.code and hides internal detail, the GraphQL twin of
 * the REST error handlers. Errors that are not ours (syntax, validation) keep their own code.
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (!original || original instanceof GraphQLError) return formatted;
  const code = formatted.extensions?.code;
  // Errors relayed from a subgraph already carry the subgraph's formatted code.
  if (!(original instanceof AppError) && typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') return formatted;
  const appError = original instanceof AppError ? original : toAppError(original);
  return {
    ...formatted,
    message: appError.message,
    extensions: { ...formatted.extensions, code: appError.code, httpStatus: appError.status, ...appError.details },
  };
}

/**
 * GraphQL gives an omitted optional input field as absent and an explicit null as null; both mean
 * "not given" to the zod schemas the REST bodies share, at every depth of an input object.
 */
export function withoutNulls<T>(value: T): T;
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null && field !== undefined)
      .map(([name, field]) => [name, withoutNulls(field)]),
  );
}

interface SafeParser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } };
}

/**
 * Validates a GraphQL input object with the same zod schema as the REST body, so both front
 * doors accept and refuse exactly the same requests. GraphQL nulls mean "omitted".
 */
export function parseGraphQLInput<T>(schema: SafeParser<T>, input: Record<string, unknown>, code: ErrorCode): T {
  const result = schema.safeParse(withoutNulls(input));
  if (result.success) return result.data;
  const message = result.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'input'}: ${issue.message}`).join('; ');
  throw new AppError(code, { message: `Invalid input: ${message}` });
}
