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
    /** The route's helmet middleware, built once when the route was added; null: no security headers. */
    securityHeaders?: HeadersMiddleware | null;
  }
}

function rethrow(error?: unknown): void {
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/**
 * helmet's security headers on every answer, the routes' own options merged over `serverWide`
 * (decision 0045). Each route's middleware is built once, when the route is added: @fastify/helmet
 * builds it again for every request (CSP directives parsed each time), which cost about 6% of a
 * payment replay's CPU.
 */
export function addSecurityHeaders(app: FastifyInstance, serverWide: HelmetOptions, build: (options: HelmetOptions) => HeadersMiddleware = helmet): ServerWideHeaders {
  const everyRoute = build(serverWide);
  app.addHook('onRoute', (route) => {
    if (route.helmet === undefined) return;
    // HelmetOptions forbids setting both names of one header (hsts and strictTransportSecurity) in its type; helmet checks the merge when it builds.
    const own = route.helmet === false ? null : build({ ...serverWide, ...route.helmet } as HelmetOptions);
    route.config = { ...route.config, securityHeaders: own };
  });
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config.securityHeaders;
    const headers = own === undefined ? everyRoute : own;
    if (headers) headers(request.raw, reply.raw, rethrow);
    done();
  });
  return (request, response) => everyRoute(request, response, rethrow);
}
