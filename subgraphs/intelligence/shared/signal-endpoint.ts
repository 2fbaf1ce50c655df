import type { z } from 'zod';
import type { ErrorCode } from '../../../platform/errors.js';
import type { SeriesSet, SignalAnswer } from '../domain/index.js';

/** The data an endpoint computes over: the shipped snapshot, or the snapshot with live series laid over it. */
export interface IntelligenceDataset {
  series: SeriesSet;
}

export interface ComputeContext<Params> {
  dataset: IntelligenceDataset;
  now: Date;
  params: Params;
}

/**
 * A free GET beside a paid POST endpoint at the same path (GET /butterfly, GET /contagion): the
 * catalogue a caller needs to form a request. Node discovery moves no money and reveals no answer.
 */
export interface SignalDiscovery<Listing extends object = object> {
  summary: string;
  response: z.ZodObject<z.ZodRawShape>;
  list(): Listing;
  /** The Query field answering the same listing. */
  graphqlField: string;
}

/**
 * One paid intelligence endpoint, served alike by REST and GraphQL (shared/signal-routes.ts and
 * signal-resolvers.ts): its catalog id, how to read its parameters, how to compute it, and the
 * X-Rail-* headers it names.
 */
export interface SignalEndpoint<Params = Record<string, never>, Body extends object = object> {
  /** Key of data/catalog.json: the path after /v1/intelligence (`macro-stress`, `esg/:address`). */
  id: string;
  /** One line for the OpenAPI summary and the x402 description. */
  summary: string;
  /** Query and path parameters of a GET, the JSON body of a POST (REST), and GraphQL arguments: one schema for all. */
  params?: z.ZodType<Params>;
  /** A typical request as a caller sends it (body or query), when the endpoint has required parameters: what `npm run bench` times and tests call. */
  example?: Readonly<Record<string, unknown>>;
  /** Error code of a request whose parameters do not parse (default GEN_ERR_BAD_REQUEST). */
  invalidParamsCode?: ErrorCode;
  /** The cache key of an answer for `params` (default: the endpoint id). */
  cacheKey?: (params: Params) => string;
  /** The documented body (without the envelope): the compiled serialiser and the OpenAPI document. */
  response: z.ZodObject<z.ZodRawShape>;
  compute(context: ComputeContext<Params>): SignalAnswer<Body> | Promise<SignalAnswer<Body>>;
  /** The endpoint's own X-Rail-* headers, from its answer. */
  headers(body: Body): Record<string, string>;
  /** Only for a POST endpoint: the free GET at its path that lists what a request may name. */
  discovery?: SignalDiscovery;
  graphql: {
    /** The Query field (a POST endpoint's simulation is a query too: it has no side effects). */
    field: string;
    /** The GraphQL shape of the answer when it differs from REST (keys GraphQL cannot name, objects keyed by name). */
    toGraphQL?: (body: Body) => object;
  };
}

/** An endpoint with its parameter and body types erased, for lists of endpoints. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnySignalEndpoint = SignalEndpoint<any, any>;
