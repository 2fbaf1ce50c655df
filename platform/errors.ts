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
  GEN_ERR_PAYMENT_REQUIRED: { status: 402, message: 'This resource is paid: send an x402 payment in X-PAYMENT (the requirements are in the answer), or an X-API-Key.' },
  GEN_ERR_UNAUTHORIZED: { status: 401, message: 'A valid key is required (X-API-Key, or Authorization: Bearer for institutions).' },
  GEN_ERR_INTERNAL: { status: 500, message: 'Internal error; the failure was logged.' },
  GEN_ERR_UNAVAILABLE: { status: 503, message: 'A dependency is unavailable; retry later.' },
  GEN_ERR_METHOD_NOT_ALLOWED: { status: 405, message: 'This path does not answer this method; see the Allow header.' },
  GEN_ERR_URI_TOO_LONG: { status: 414, message: 'The request line is too long.' },
  GEN_ERR_HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large.' },
  GEN_ERR_TIMEOUT: { status: 503, message: 'The request took too long to answer; retry later.' },
  GEN_ERR_IDEMPOTENCY_CONFLICT: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request; a key names one request. Resend the same request to read its answer, or use a new key.',
  },
  GEN_ERR_IDEMPOTENCY_IN_PROGRESS: { status: 409, message: 'A request with this Idempotency-Key is still being answered; retry it shortly to read its answer.' },
  GQL_ERR_PARSE_FAILED: { status: 400, message: 'The GraphQL document is not valid GraphQL syntax.' },
  GQL_ERR_VALIDATION_FAILED: { status: 400, message: 'The GraphQL operation does not match the schema.' },
  GQL_ERR_BAD_REQUEST: { status: 400, message: 'The GraphQL request is malformed (operation name, variables or body).' },
  GQL_ERR_BAD_USER_INPUT: { status: 400, message: 'An argument of the GraphQL operation is invalid.' },
  GQL_ERR_TOO_MANY_TOKENS: { status: 400, message: 'The GraphQL document has more tokens than allowed.' },
  GQL_ERR_TOO_DEEP: { status: 400, message: 'The GraphQL operation nests fields deeper than allowed.' },
  GQL_ERR_TOO_MANY_ALIASES: { status: 400, message: 'The GraphQL operation uses more aliases than allowed.' },
  GQL_ERR_TOO_MANY_DIRECTIVES: { status: 400, message: 'The GraphQL operation uses more directives than allowed.' },
  GQL_ERR_TOO_COSTLY: { status: 400, message: 'The estimated cost of the GraphQL operation is above the limit.' },
  GQL_ERR_RESPONSE_TOO_LARGE: { status: 413, message: 'The GraphQL response would be larger than allowed; ask for fewer fields.' },
  GQL_ERR_BATCHING_DISABLED: { status: 400, message: 'Batched GraphQL requests (a JSON array of operations) are not accepted.' },
  GQL_ERR_INTROSPECTION_DISABLED: { status: 400, message: 'Schema introspection is disabled in production.' },
  GQL_ERR_VARIABLES_TOO_LARGE: { status: 400, message: 'The GraphQL variables nest deeper or hold more values than allowed.' },
  SUBGRAPH_UNAVAILABLE: { status: 503, message: 'A part of the graph is unavailable; the other fields were answered. Retry later.' },
  INT_ERR_INVALID_PARAMETER: { status: 400, message: 'A parameter of the intelligence request is invalid.' },
  INT_ERR_UNKNOWN_NODE: { status: 400, message: 'The node id is not in the model catalogue; GET the endpoint (free) for the valid ids.' },
  INT_ERR_INVALID_SUBJECT: { status: 400, message: 'The subject must be an EVM address (0x and 40 hex digits) or a 20-character LEI with valid ISO 17442 check digits.' },
  FEE_ERR_INVALID_QUOTE_PARAMS: { status: 400, message: 'Invalid quote parameters.' },
  FEE_ERR_QUOTE_NOT_FOUND: { status: 404, message: 'No quote with this quoteId was issued.' },
  FEE_ERR_INVALID_CURRENCY: { status: 400, message: 'The currency must be an ISO 4217 code: three capital letters.' },
  FEE_ERR_FX_RATE_NOT_FOUND: { status: 404, message: 'No FX rate against USD is shipped for this currency.' },
  FEE_ERR_ORACLE_NOT_READY: { status: 503, message: 'The oracle has no successful run on record yet; retry after its first run.' },
  CMP_ERR_INVALID_REQUEST: { status: 400, message: 'The compliance request is malformed.' },
  CMP_ERR_INVALID_LEI: { status: 400, message: 'The LEI is malformed: 20 letters and digits with valid ISO 17442 check digits.' },
  CMP_ERR_LEI_NOT_FOUND: { status: 404, message: 'No entity with this LEI is in the LEI registry snapshot.' },
  CMP_ERR_LEI_NOT_VERIFIED: { status: 422, message: 'The LEI could not be verified against the LEI registry.' },
  CMP_ERR_WALLET_NOT_REGISTERED: { status: 404, message: 'The wallet is not registered.' },
  CMP_ERR_AGENT_NOT_FOUND: { status: 404, message: 'No agent with this agentId is registered.' },
  CMP_ERR_AGENT_REVOKED: { status: 410, message: 'The agent was revoked: its mandate cannot change and its identity document no longer resolves.' },
  CMP_ERR_KYA_UPGRADE_REQUIRED: {
    status: 403,
    message: 'ANONYMOUS agents cannot hold a mandate: re-register with ownerEntity and ownerEmail (REGISTERED) or an ACTIVE ownerLei (VERIFIED) first.',
  },
  CMP_ERR_AGENT_UNAUTHORIZED: {
    status: 401,
    message: "Acting for an agent needs its owner's proof: the header X-Agent-Key with the agentKey issued at its registration (decision 0048). The agentId alone proves nothing.",
  },
  CMP_ERR_AML_PAYMENT_CONFLICT: {
    status: 409,
    message: 'This paymentId was already screened for this wallet with other terms (counterparty, amount, currency or direction); a paymentId screens one payment.',
  },
  CMP_ERR_ESG_NAME_REQUIRED: { status: 400, message: 'The LEI is not in the LEI registry snapshot nor registered to a wallet: give the legal name (query name).' },
  CMP_ERR_WALLET_HAS_NO_LEI: { status: 404, message: 'The wallet is registered without an LEI, so it has no entity ESG score.' },
  CMP_ERR_STREAM_AMOUNT_NOT_WHOLE_UNITS: {
    status: 400,
    message: 'A streaming session is funded with a whole number of units: amountUsdc must be a positive multiple of the unit price of its unitType.',
  },
  CMP_ERR_STREAM_TOKEN_REQUIRED: { status: 401, message: 'A streaming session is used with its token: Authorization: Bearer <token returned by POST /stream/open>.' },
  CMP_ERR_STREAM_INSUFFICIENT_BALANCE: { status: 402, message: 'The session balance does not cover these units; nothing was charged. Open a new session for more.' },
  CMP_ERR_STREAM_NOT_FOUND: { status: 404, message: 'No streaming session has this sessionId and this token.' },
  CMP_ERR_STREAM_EXPIRED: { status: 410, message: 'The streaming session has expired (24 hours after it was opened): it takes no more ticks.' },
  CMP_ERR_STREAM_NOT_RECORDED: {
    status: 500,
    message: 'The payment settled but the streaming session could not be recorded; the failure was logged with the transaction for the operator. Do not pay again.',
  },
  PAY_ERR_MANDATE_INVALID: {
    status: 400,
    message:
      'The AP2 payment mandate (body.mandate) failed verification or does not match the settlement: see reason. It must be an ES256 SD-JWT of type mandate.payment.1 or mandate.payment.open.1 from a trusted issuer, unexpired, with payee and payment_amount equal to the settlement and terms that agree with its quote.',
  },
  PAY_ERR_AGENT_REFUSED: {
    status: 403,
    message: 'The agent (X-Agent-Id) may not settle: it is revoked, unknown, or its live verification did not hold. See reason.',
  },
  PAY_ERR_INVALID_REQUEST: { status: 400, message: 'The payment request is malformed: see the fields named.' },
  PAY_ERR_IDEMPOTENCY_CONFLICT: {
    status: 409,
    message:
      'This tmsReference was already used for a payment with a different body; a tmsReference identifies one payment. Resend the same body to read its result, or use a new tmsReference (decision 0025).',
  },
  PAY_ERR_PAYMENT_NOT_FOUND: { status: 404, message: 'No payment with this railPaymentId or tmsReference.' },
  PAY_ERR_RATE_UNAVAILABLE: { status: 404, message: 'No FX rate against USD is available for this currency.' },
  PAY_ERR_QUOTE_INVALID: { status: 400, message: 'The quoteId given with the payment is not valid for it: expired, not issued by the fee oracle, or issued for other terms.' },
  PAY_ERR_QUOTE_USED: {
    status: 409,
    message: 'The quoteId given with the payment was already used by another payment; a quote pays for one payment, whatever became of it. Ask the fee oracle for a new quote (decision 0046).',
  },
  PAY_ERR_HOLD_NOT_FOUND: { status: 404, message: 'No held settlement with this holdId.' },
  PAY_ERR_HOLD_DECIDED: {
    status: 409,
    message: 'The held settlement was already decided the other way: a dismissed hold cannot be released, and a hold whose release has started cannot be dismissed (decision 0047).',
  },
  PAY_ERR_NOT_AN_INSTITUTION: {
    status: 403,
    message: "Only an institution initiates payments: the admin key reads every institution's payments but owns none. Use an institution's bearer key (decision 0050).",
  },
  PAY_ERR_AGENT_UNAUTHORIZED: {
    status: 401,
    message:
      "Settling as an agent, and the agent's funds, need X-Agent-Id and its owner's proof, the header X-Agent-Key with the agentKey issued at registration; a settlement without X-Agent-Id needs body.mandate (decisions 0048, 0049).",
  },
  PAY_ERR_INSUFFICIENT_FUNDS: {
    status: 409,
    message:
      "The funds paying this settlement do not cover it: nothing was sent. An agent's owner deposits more (POST /agent/deposits) first; for an AP2 mandate alone, its issuer's deposits pay, credited by the operator (decision 0049).",
  },
  PAY_ERR_DEPOSIT_INVALID: {
    status: 400,
    message:
      "The transaction holds no transfer of the rail's token to its treasury from a wallet bound to this agent (or configured for this AP2 issuer), or it did not succeed on the rail's chain (decision 0049).",
  },
  PAY_ERR_FUNDING_WALLET_INVALID: {
    status: 400,
    message: "The funding wallet was not bound: the signature must be the wallet's own (EIP-191) over the message given in the documentation, naming this agent (decision 0049).",
  },
  PAY_ERR_FUNDING_WALLET_TAKEN: { status: 409, message: 'This wallet already funds another agent or a trusted AP2 issuer; a wallet funds one (decision 0049).' },
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

/**
 * Codes meaning the other side (PostgreSQL, Redis, a node, a service) could not be reached or
 * stopped answering: Node's socket errors, postgres.js's connection errors, and PostgreSQL's own
 * "shutting down", "cannot connect now" and "statement timeout" (57P01, 57P03, 57014).
 */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01',
  '57P03',
  '57014',
]);
/** viem's names for a node that did not answer (its HTTP transport failed or timed out). */
const UNREACHABLE_ERROR_NAMES = new Set(['HttpRequestError', 'TimeoutError']);

/** True when `error`, or a cause along its chain (at most 8 deep), says a dependency could not be reached. */
export function isUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if ((typeof code === 'string' && UNREACHABLE_CODES.has(code)) || UNREACHABLE_ERROR_NAMES.has(current.name)) return true;
    current = current.cause;
  }
  return false;
}

export function renderErrorCatalogMarkdown(): string {
  const rows = Object.entries(errorCatalog).map(([code, entry]) => `| \`${code}\` | ${entry.status} | ${entry.message} |`);
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
