import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Clock } from './clock.js';

/**
 * The headers the platform carries from the caller to every subgraph (DESIGN.md §2), in both
 * layouts: the in-process gateway hands them over as they are, the remote one forwards them over
 * HTTP. Anything else the caller sent stays at the edge.
 */
export const FORWARDED_HEADERS = [
  'authorization',
  'x-api-key',
  'x-payment',
  'x-agent-id',
  // An agent owner's proof (decision 0048), beside the agent's id.
  'x-agent-key',
  'idempotency-key',
  'x-internal-key',
] as const;

export type ForwardedHeaderName = (typeof FORWARDED_HEADERS)[number];
export type ForwardedHeaders = Readonly<Partial<Record<ForwardedHeaderName, string>>>;

export const REQUEST_ID_HEADER = 'x-request-id';

/** Longest header value carried on; a longer one is dropped rather than truncated (it could not be valid). */
const MAX_FORWARDED_HEADER_LENGTH = 8192;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Who is calling. Until authentication lands every caller is anonymous; auth fills in the rest. */
export type Caller = { kind: 'anonymous' };

/** What every REST handler and every subgraph resolver receives about the request, alike in every layout. */
export interface RequestContext {
  /** The caller's X-Request-Id when well-formed, else a fresh UUID; echoed in the response and in every log line. */
  readonly requestId: string;
  readonly caller: Caller;
  readonly headers: ForwardedHeaders;
  readonly clock: Clock;
  /**
   * Headers the answer must carry, set wherever the work happens (a resolver taking a payment
   * sets X-PAYMENT-RESPONSE): the HTTP layer writes them, and the gateway relays those of
   * RELAYED_RESPONSE_HEADERS from a subgraph in another process.
   */
  readonly responseHeaders: Map<string, string>;
  /** Aborted when no one will read the answer any more: the client went away, or the request was answered 503 for taking too long. */
  readonly abandoned: AbortSignal;
}

const NEVER_ABANDONED = new AbortController().signal;

/** Response headers a subgraph sets that the gateway passes on to its caller. */
export const RELAYED_RESPONSE_HEADERS = ['x-payment-response', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

type HeaderSource = IncomingHttpHeaders | Record<string, string | string[] | undefined>;

function singleValue(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && text.length <= MAX_FORWARDED_HEADER_LENGTH ? text : undefined;
}

/** Picks the named headers (lower-case) out of whatever header object a transport has. */
export function pickForwardedHeaders(source: HeaderSource): ForwardedHeaders {
  const picked: Partial<Record<ForwardedHeaderName, string>> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = singleValue(source[name]);
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

/** A caller-supplied request id is kept only when it is short and plain, so it is safe in logs. */
export function requestIdFrom(source: HeaderSource): string {
  const given = singleValue(source[REQUEST_ID_HEADER]);
  return given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
}

/**
 * Whether anyone will read an HTTP answer, as an AbortSignal made when first asked for (decision
 * 0094): most handlers never ask, and an AbortController with a close listener on every answer
 * cost a cached GET a few percent of its time. Aborted when the answer closed before it was ended
 * (the client left; an in-process inject has no socket, so writableEnded, not writableFinished),
 * or by `abort` (the slow-request answer).
 */
export class ResponseAbandonment {
  readonly #response: ServerResponse;
  #controller: AbortController | undefined;

  constructor(response: ServerResponse) {
    this.#response = response;
  }

  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = new AbortController();
    this.#controller = controller;
    const response = this.#response;
    if (response.destroyed) {
      if (!response.writableEnded) controller.abort();
    } else {
      response.once('close', () => {
        if (!response.writableEnded) controller.abort();
      });
    }
    return controller.signal;
  }

  abort(): void {
    this.#controller ??= new AbortController();
    this.#controller.abort();
  }
}

export function createRequestContext(source: HeaderSource, clock: Clock, requestId = requestIdFrom(source), abandoned: AbortSignal | ResponseAbandonment = NEVER_ABANDONED): RequestContext {
  const headers = pickForwardedHeaders(source);
  const caller: Caller = { kind: 'anonymous' };
  if (abandoned instanceof ResponseAbandonment) {
    return {
      requestId,
      caller,
      headers,
      clock,
      responseHeaders: new Map(),
      get abandoned() {
        return abandoned.signal;
      },
    };
  }
  return { requestId, caller, headers, clock, responseHeaders: new Map(), abandoned };
}

/** The headers that carry a context to a subgraph in another process. */
export function headersForSubgraph(context: RequestContext): Record<string, string> {
  return { ...context.headers, [REQUEST_ID_HEADER]: context.requestId };
}
