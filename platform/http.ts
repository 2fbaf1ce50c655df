import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RawServerDefault,
} from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { type Clock, systemClock } from './clock.js';
import { clip, echo } from './echo.js';
import { AppError, type ErrorCode, InfrastructureError, isUnreachable } from './errors.js';
import { describeInputProblem, findInputProblem, type InputProblem } from './input-hygiene.js';
import { lazyChildLogger, type Logger } from './log.js';
import { createMethodIndex, type MethodIndex } from './method-index.js';
import type { Metrics } from './metrics.js';
import { createRequestContext, FORWARDED_HEADERS, REQUEST_ID_HEADER, type RequestContext, requestIdFrom, ResponseAbandonment } from './request-context.js';
import { addSecurityHeaders, type ServerWideHeaders } from './security-headers.js';
import { compileResponseSerializer } from './serializer.js';

export { clip, echo };

export type HttpServer = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What checks this route's body and query string with the same rule (platform/input-hygiene.ts)
     * and answers in its own shape (GraphQL errors, an MCP tool error, an HTML page): the REST
     * input check leaves them to it (decision 0053).
     */
    inputCheckedBy?: 'graphql' | 'mcp' | 'page';
  }
  interface FastifyInstance {
    /** The OpenAPI documents this server publishes (any route ending in /openapi.json), for platform/capabilities.ts. */
    openApiDocumentUrls: string[];
  }
  interface FastifyRequest {
    /** The platform's request context (platform/request-context.ts), the same one resolvers get. */
    requestContext: RequestContext;
  }
}

/**
 * A route plugin over the platform's server type. Fastify hands a plugin its base instance type;
 * every server here is made by createHttpServer with the zod type provider, so the plugin sees it
 * as HttpServer. This is the one place that says so.
 */
export function httpRoutes(register: (app: HttpServer) => Promise<void>): FastifyPluginAsync {
  return async (instance) => register(instance as unknown as HttpServer);
}

export interface HttpServerOptions {
  logger: Logger;
  metrics?: Metrics;
  clock?: Clock;
  bodyLimitBytes?: number;
  /** Longest a request may take, routing to last byte; answered 503 GEN_ERR_TIMEOUT after. */
  handlerTimeoutMs?: number;
  /** PUBLIC_BASE_URL: the origin named in payment resources and discovery documents. */
  publicBaseUrl?: string | undefined;
}

const MAX_ERROR_MESSAGE_LENGTH = 400;
/** Path parameters longer than this are refused by the router with 400 (no documented key is near it). */
const MAX_PARAM_LENGTH = 256;
const MAX_HEADER_BYTES = 16 * 1024;

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { keys?: string[]; issue?: { path?: PropertyKey[] } };
}

function describeIssue(issue: ValidationIssue, context: string | undefined): string {
  const path = issue.params?.issue?.path?.map(String).join('.') || issue.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  const unknownKeys = issue.params?.keys;
  if (issue.keyword === 'unrecognized_keys' && unknownKeys) {
    const where = path ? ` in ${path}` : '';
    return `unknown field${unknownKeys.length === 1 ? '' : 's'}${where}: ${unknownKeys.slice(0, 5).map(echo).join(', ')}`;
  }
  if (!path && context === 'body') return 'a JSON object body is required';
  return `${path || context || 'request'}: ${issue.message ?? 'invalid value'}`;
}

const fastifyCodeToAppCode: Record<string, { code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'GEN_ERR_BAD_REQUEST', message: 'A JSON body is required.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'GEN_ERR_BAD_REQUEST', message: 'The body is not valid JSON, or it holds a __proto__ or constructor.prototype key.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'GEN_ERR_UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'GEN_ERR_PAYLOAD_TOO_LARGE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'GEN_ERR_BAD_REQUEST', message: 'The Content-Length does not match the body.' },
  FST_ERR_BAD_URL: { code: 'GEN_ERR_BAD_REQUEST', message: 'The URL holds an invalid percent-encoding.' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'GEN_ERR_BAD_REQUEST', message: `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.` },
};

/**
 * Turns anything a route can throw into an AppError, so every error handler formats one type.
 * 1. Schema validation failures become `validationCode` with the offending fields named.
 * 2. Fastify's own errors (bad JSON, media type, size, URL encoding, parameter length, timeout)
 *    get a catalog code and a message of ours, never Fastify's text with the caller's input in it.
 * 3. Infrastructure failures are 503 with a retry hint; anything else is an internal error whose
 *    detail goes to the log, never to the client.
 */
export function toAppError(error: unknown, validationCode: ErrorCode = 'GEN_ERR_BAD_REQUEST'): AppError {
  if (error instanceof AppError) return error;
  // A dependency that did not answer is a 503 whoever forgot to wrap it, never a 500.
  if (error instanceof InfrastructureError || isUnreachable(error)) return new AppError('GEN_ERR_UNAVAILABLE', { retryAfterSeconds: 5, cause: error });
  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[] };
  if (Array.isArray(fastifyError.validation)) {
    const message = fastifyError.validation.map((issue) => describeIssue(issue, fastifyError.validationContext)).join('; ');
    return new AppError(validationCode, { message: `Invalid ${fastifyError.validationContext ?? 'request'}: ${message}` });
  }
  const mapped = fastifyError.code ? fastifyCodeToAppCode[fastifyError.code] : undefined;
  if (mapped) return new AppError(mapped.code, { ...(mapped.message ? { message: mapped.message } : {}), cause: error });
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('GEN_ERR_BAD_REQUEST', { cause: error });
  }
  return new AppError('GEN_ERR_INTERNAL', { cause: error });
}

/**
 * How one service writes its errors (the spec documents one body per service: the quote services
 * `{error, example}`, the forecast `{message}`). Every error under `prefix`, Fastify's and Node's
 * included, uses it; paths under no service's prefix get the generic `{error, code}`.
 */
export interface ServiceErrorShape {
  prefix: string;
  /** Turns a generic AppError into the service's own code where the service documents one. */
  refine?(error: AppError, url: string): AppError;
  body(error: AppError): Record<string, unknown>;
}

/** The generic error body for paths whose shape the spec does not show: {error, code}. */
export function genericErrorBody(error: AppError): Record<string, unknown> {
  return { error: error.message, code: error.code, ...error.details };
}

const genericShape: ServiceErrorShape = { prefix: '/', body: genericErrorBody };

function capMessage(error: AppError): AppError {
  if (error.message.length <= MAX_ERROR_MESSAGE_LENGTH) return error;
  return new AppError(error.code, {
    message: `${error.message.slice(0, MAX_ERROR_MESSAGE_LENGTH)}…`,
    details: error.details,
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    cause: error.cause,
  });
}

/** Sends an AppError with its status, Retry-After when given, and the given body. Logs 5xx once. */
export function sendAppError(reply: FastifyReply, error: AppError, body: Record<string, unknown>): FastifyReply {
  if (error.status >= 500) reply.log.error({ err: error.cause ?? error, code: error.code }, error.message);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

export interface ErrorShapes {
  register(shape: ServiceErrorShape): void;
  send(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply;
  /** The status and body `error` gets under `url`, for an answer no route sends (an MCP tool's refusal of its arguments). */
  answerFor(url: string, error: unknown): { status: number; body: Record<string, unknown> };
}

function createErrorShapes(): ErrorShapes {
  const shapes: ServiceErrorShape[] = [];
  const shapeFor = (url: string) => shapes.find((shape) => url === shape.prefix || url.startsWith(`${shape.prefix}/`) || url.startsWith(`${shape.prefix}?`)) ?? genericShape;
  return {
    register(shape) {
      shapes.push(shape);
      shapes.sort((a, b) => b.prefix.length - a.prefix.length);
    },
    send(request, reply, error) {
      const url = request.raw.url ?? '/';
      const shape = shapeFor(url);
      const appError = capMessage((shape.refine ?? ((same: AppError) => same))(toAppError(error), url));
      // x402 dictates the 402 body (the payment requirements), whatever the service's error shape.
      return sendAppError(reply, appError, appError.code === 'GEN_ERR_PAYMENT_REQUIRED' ? appError.details : shape.body(appError));
    },
    answerFor(url, error) {
      const shape = shapeFor(url);
      const appError = capMessage((shape.refine ?? ((same: AppError) => same))(toAppError(error), url));
      return { status: appError.status, body: shape.body(appError) };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The services' error bodies by path prefix (platform/http.ts ServiceErrorShape). */
    errorShapes: ErrorShapes;
    /** PUBLIC_BASE_URL without its trailing slash, when the server is reached through another origin. */
    publicBaseUrl: string | undefined;
  }
}

/** The origin clients reach this server at: PUBLIC_BASE_URL when set, else the request's own. */
export function publicOriginOf(request: FastifyRequest): string {
  return request.server.publicBaseUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * Fastify with zod validation, the error model, security headers, request ids and the request
 * context. Returns an instance that is not listening (STYLE: build() then a tiny entry calls
 * listen), so tests use inject().
 */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const clock = options.clock ?? systemClock;
  const errorShapes = createErrorShapes();
  let serverWideHeaders: ServerWideHeaders = () => undefined;
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    // Each request's child logger (with its reqId) is made when the request first logs: most never do.
    childLoggerFactory: lazyChildLogger,
    bodyLimit: options.bodyLimitBytes ?? 1_048_576,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    return503OnClosing: true,
    requestIdHeader: false,
    genReqId: (request) => requestIdFrom(request.headers),
    // Answered before any hook ran (a malformed URL, a parameter too long): the security headers are set here.
    frameworkErrors: (error, request, reply) => {
      serverWideHeaders(request.raw, reply.raw);
      return errorShapes.send(request, reply, error);
    },
    clientErrorHandler: answerMalformedRequest,
  }).withTypeProvider<ZodTypeProvider>() as unknown as HttpServer;
  app.decorate('errorShapes', errorShapes);
  app.decorate('publicBaseUrl', options.publicBaseUrl?.replace(/\/+$/, ''));
  app.decorateRequest('requestContext', null as unknown as RequestContext);
  serverWideHeaders = addSecurityHeaders(app, {
    // An API answers JSON only: nothing it sends may load or frame anything.
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });
  const timers = new WeakMap<FastifyRequest, NodeJS.Timeout>();
  const timeoutMs = options.handlerTimeoutMs;
  // One hook a phase, in the callback form: each hook is a step of Fastify's runner, and an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    const abandonment = new ResponseAbandonment(reply.raw);
    request.requestContext = createRequestContext(request.headers, clock, request.id, abandonment);
    reply.header(REQUEST_ID_HEADER, request.id);
    if (timeoutMs) timers.set(request, answerWhenSlow(request, reply, abandonment, errorShapes, timeoutMs));
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const set = request.requestContext?.responseHeaders;
    if (set?.size) for (const [name, value] of set) reply.header(name, value);
    done(null, payload);
  });
  app.addHook('preHandler', refuseUncleanInput);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(({ schema }) => compileResponseSerializer(schema as z.ZodType));
  app.setErrorHandler((error, request, reply) => errorShapes.send(request, reply, error));
  const methods = createMethodIndex();
  app.addHook('onRoute', (route) => methods.add(route.method, route.url));
  app.decorate('openApiDocumentUrls', [] as string[]);
  app.addHook('onRoute', (route) => {
    if (route.url.endsWith('/openapi.json') && route.method === 'GET') app.openApiDocumentUrls.push(route.url);
  });
  app.setNotFoundHandler((request, reply) => answerUnroutable(request, reply, methods, errorShapes));
  const observe = options.metrics ? requestDurationObserver(options.metrics) : undefined;
  if (timeoutMs || observe) {
    app.addHook('onResponse', (request, reply, done) => {
      if (timeoutMs) clearTimeout(timers.get(request));
      observe?.(request, reply);
      done();
    });
  }
  return app;
}

/**
 * A request not answered within `timeoutMs` is answered 503 GEN_ERR_TIMEOUT with a retry hint.
 * One timer a request, cleared when the response is sent. (Fastify's `handlerTimeout` does the
 * same with an AbortController a request, aborted on every close: a DOMException with its stack
 * for each request, a few percent of a fast route's time.)
 */
function answerWhenSlow(request: FastifyRequest, reply: FastifyReply, abandonment: ResponseAbandonment, errorShapes: ErrorShapes, timeoutMs: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    if (reply.sent || reply.raw.headersSent || reply.raw.destroyed) return;
    abandonment.abort();
    errorShapes.send(request, reply, new AppError('GEN_ERR_TIMEOUT', { retryAfterSeconds: 5 }));
  }, timeoutMs);
  timer.unref();
  return timer;
}

/** The first problem of the request's inputs, with where it was (the same words as a schema's refusal). */
function findRequestInputProblem(request: FastifyRequest): { where: string; problem: InputProblem } | undefined {
  const checkedByProtocol = request.routeOptions.config?.inputCheckedBy !== undefined;
  const parts: Array<[string, unknown]> = [['params', request.params]];
  if (!checkedByProtocol) parts.push(['querystring', request.query], ['body', request.body]);
  // Headers from a socket are Latin-1 without NUL (Node refuses it); an in-process inject has no such parser.
  for (const name of FORWARDED_HEADERS) if (request.headers[name] !== undefined) parts.push(['headers', { [name]: request.headers[name] }]);
  for (const [where, value] of parts) {
    const problem = findInputProblem(value, '');
    if (problem) return { where, problem };
  }
  return undefined;
}

/**
 * Every string a route reads is valid Unicode without NUL, at any depth and in keys too, or the
 * request is answered 400 in its service's error shape naming the field (platform/input-hygiene.ts).
 * A preHandler: after the route's own key check (a caller without a key learns nothing of the
 * fields) and before any handler, x402 charge or database write.
 */
function refuseUncleanInput(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  const found = findRequestInputProblem(request);
  if (!found) return done();
  done(new AppError('GEN_ERR_BAD_REQUEST', { message: `Invalid ${found.where}: ${describeInputProblem(found.problem)}` }));
}

/** 405 with Allow when the path exists under another method, 404 otherwise; each in its service's shape. */
function answerUnroutable(request: FastifyRequest, reply: FastifyReply, methods: MethodIndex, errorShapes: ErrorShapes) {
  const path = (request.raw.url ?? '/').split('?')[0] ?? '/';
  const allowed = methods.allowedFor(path);
  if (allowed.length > 0) {
    reply.header('allow', allowed.join(', '));
    const error = new AppError('GEN_ERR_METHOD_NOT_ALLOWED', { message: `${request.method} is not allowed on ${clip(path)}; allowed: ${allowed.join(', ')}` });
    return errorShapes.send(request, reply, error);
  }
  const error = new AppError('GEN_ERR_NOT_FOUND', { message: `No route for ${request.method} ${clip(path)}` });
  return errorShapes.send(request, reply, error);
}

/**
 * Node answers requests it cannot parse (headers too large, a malformed request line) before any
 * route exists, with its own body. Ours is the generic error body, as JSON.
 */
export function answerMalformedRequest(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('GEN_ERR_HEADERS_TOO_LARGE')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('GEN_ERR_TIMEOUT', { message: 'The request was not received in time.' })
        : new AppError('GEN_ERR_BAD_REQUEST', { message: 'The HTTP request could not be parsed.' });
  const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : appError.status;
  const body = JSON.stringify(genericErrorBody(appError));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Observes each response's duration; the labelled child of each (method, route, status) is looked up once. */
function requestDurationObserver(metrics: Metrics): (request: FastifyRequest, reply: FastifyReply) => void {
  const children = new Map<string, { observe(seconds: number): void }>();
  return (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = metrics.httpRequestDuration.labels({ method: request.method, route, status: String(reply.statusCode) });
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
  };
}
