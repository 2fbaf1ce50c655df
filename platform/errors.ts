/**
 * The one catalog of coded errors. REST sends `status`; GraphQL puts `code` in extensions.code.
 * docs/errors.md is generated from this list (npm run docs:errors) and a test keeps them equal.
 */
export const errorCatalog = {
  GEN_ERR_BAD_REQUEST: { status: 400, message: 'The request is malformed.' },
  GEN_ERR_NOT_FOUND: { status: 404, message: 'No such resource.' },
  GEN_ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  GEN_ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON (Content-Type: application/json).' },
  GEN_ERR_RATE_LIMITED: { status: 429, message: 'Too many requests; retry later.' },
  GEN_ERR_INTERNAL: { status: 500, message: 'Internal error; the failure was logged.' },
  GEN_ERR_UNAVAILABLE: { status: 503, message: 'A dependency is unavailable; retry later.' },
  FEE_ERR_INVALID_QUOTE_PARAMS: { status: 400, message: 'Invalid quote parameters.' },
  FEE_ERR_QUOTE_NOT_FOUND: { status: 404, message: 'No quote with this quoteId was issued.' },
  FCT_ERR_INVALID_SYMBOL: { status: 400, message: 'The commodity symbol is malformed.' },
  FCT_ERR_UNSUPPORTED_SYMBOL: { status: 404, message: 'The commodity symbol is not supported.' },
  FCT_ERR_INVALID_BODY: { status: 400, message: 'The request body is malformed.' },
  FCT_ERR_UNKNOWN_SCENARIO: { status: 400, message: 'The scenario id is not one of the built-in scenarios.' },
  FCT_ERR_UPSTREAM_UNAVAILABLE: {
    status: 503,
    message: 'The upstream climate data source is temporarily unavailable; retry after 60 seconds.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export interface AppErrorOptions {
  message?: string;
  /** Extra fields the documented error body carries (for example `example` on quote errors). */
  details?: Record<string, unknown>;
  /** Seconds a client should wait before retrying (sent as Retry-After). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? errorCatalog[code].message, { cause: options.cause });
    this.code = code;
    this.status = errorCatalog[code].status;
    this.details = options.details ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Wraps a failure of infrastructure (database, chain, network) with the call that failed. */
export class InfrastructureError extends Error {
  override name = 'InfrastructureError';
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`${operation} failed`, { cause });
  }
}

export function renderErrorCatalogMarkdown(): string {
  const rows = Object.entries(errorCatalog).map(
    ([code, entry]) => `| \`${code}\` | ${entry.status} | ${entry.message} |`,
  );
  return [
    '# Error codes',
    '',
    'Generated from `platform/errors.ts` by `npm run docs:errors`; a test fails when this file is stale.',
    'REST answers with the HTTP status and the documented error body of the service; GraphQL carries',
    'the code in `errors[].extensions.code`.',
    '',
    '| code | HTTP status | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** Exhaustiveness guard for switches over discriminated unions. */
export function unreachable(value: never): never {
  throw new Error(`unreachable case: ${JSON.stringify(value)}`);
}
