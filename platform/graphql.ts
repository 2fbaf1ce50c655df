import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { AppError } from './errors.js';
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
