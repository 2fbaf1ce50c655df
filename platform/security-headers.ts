import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  FastifyTypeProvider,
  FastifyTypeProviderDefault,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type HeadersMiddleware = (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void;

/** Sets the server's security headers on a response no hook saw (Fastify's frameworkErrors answers). */
export type ServerWideHeaders = (request: IncomingMessage, response: ServerResponse) => void;

/** A route's own security headers: helmet options over the server's (shallow, per header), or false for none. */
type RouteSecurityHeaders = HelmetOptions | false;

declare module 'fastify' {
  /* eslint-disable @typescript-eslint/no-unused-vars -- declaration merging repeats Fastify's parameters */
  interface RouteShorthandOptions<
    RawServer extends RawServerBase = RawServerDefault,
    RawRequest extends RawRequestDefaultExpression<RawServer> = RawRequestDefaultExpression<RawServer>,
    RawReply extends RawReplyDefaultExpression<RawServer> = RawReplyDefaultExpression<RawServer>,
    RouteGeneric extends RouteGenericInterface = RouteGenericInterface,
    ContextConfig = ContextConfigDefault,
    SchemaCompiler extends FastifySchema = FastifySchema,
    TypeProvider extends FastifyTypeProvider = FastifyTypeProviderDefault,
    Logger extends FastifyBaseLogger = FastifyBaseLogger,
  > {
    /** This route's security headers (platform/security-headers.ts). */
    helmet?: RouteSecurityHeaders;
  }
  /* eslint-enable @typescript-eslint/no-unused-vars */
  interface FastifyContextConfig {
    /** The route's security headers, worked out once when the route was added; null: none. */
    securityHeaders?: RouteHeaders;
  }
}

function rethrow(error?: unknown): void {
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The headers a route's middleware sets, as [lower-case name, value] pairs, set on each answer. */
type HeaderList = ReadonlyArray<readonly [string, string]>;

/** A CSP directive whose value is a function (a nonce) is worked out per request: helmet's own middleware runs then. */
function dependsOnRequest(options: HelmetOptions): boolean {
  if (typeof options.contentSecurityPolicy !== 'object') return false;
  const values = Object.values(options.contentSecurityPolicy.directives ?? {}) as unknown[];
  return values.some((value) => typeof value === 'function' || (Array.isArray(value) && value.some((item) => typeof item === 'function')));
}

/** What a middleware sets when it depends on nothing of the request: run once against a recording answer. */
function recordHeaders(middleware: HeadersMiddleware): HeaderList {
  const set = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: unknown) => set.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => set.delete(name.toLowerCase()),
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, rethrow);
  return [...set];
}

/** Per route: helmet's middleware, with the headers it sets when they depend on nothing of the request; null for none. */
type RouteHeaders = { middleware: HeadersMiddleware; list: HeaderList | undefined } | null;

function routeHeaders(options: HelmetOptions, build: (options: HelmetOptions) => HeadersMiddleware): RouteHeaders {
  const middleware = build(options);
  return { middleware, list: dependsOnRequest(options) ? undefined : recordHeaders(middleware) };
}

/**
 * helmet's security headers on every answer, the routes' own options merged over `serverWide`
 * (decision 0045). Each route's middleware is built once, when the route is added: @fastify/helmet
 * builds it again for every request (CSP directives parsed each time), which cost about 6% of a
 * payment replay's CPU. Its output is recorded then too and copied into the reply's headers per
 * request (decision 0094): running helmet's dozen middlewares per request, each a setHeader on
 * the raw answer that Node validates, then merges with Fastify's, cost a cached GET about a tenth
 * of its time. Only a CSP with a per-request directive (a nonce function) runs helmet per request.
 */
export function addSecurityHeaders(app: FastifyInstance, serverWide: HelmetOptions, build: (options: HelmetOptions) => HeadersMiddleware = helmet): ServerWideHeaders {
  const everyRoute = routeHeaders(serverWide, build);
  app.addHook('onRoute', (route) => {
    if (route.helmet === undefined) return;
    // HelmetOptions forbids setting both names of one header (hsts and strictTransportSecurity) in its type; helmet checks the merge when it builds.
    const own = route.helmet === false ? null : routeHeaders({ ...serverWide, ...route.helmet } as HelmetOptions, build);
    route.config = { ...route.config, securityHeaders: own };
  });
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config.securityHeaders;
    const headers = own === undefined ? everyRoute : own;
    if (headers?.list) for (const [name, value] of headers.list) reply.header(name, value);
    else headers?.middleware(request.raw, reply.raw, rethrow);
    done();
  });
  return (request, response) => everyRoute?.middleware(request, response, rethrow);
}
