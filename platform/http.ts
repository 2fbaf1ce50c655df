import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type RawServerDefault,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, errorCatalog, InfrastructureError, type ErrorCode } from './errors.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';

export type HttpServer = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

export interface HttpServerOptions {
  logger: Logger;
  metrics?: Metrics;
  bodyLimitBytes?: number;
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

function describeIssue(issue: ValidationIssue, context: string | undefined): string {
  const path = issue.params?.issue?.path?.map(String).join('.') || issue.instancePath?.replace(/^\//, '').replaceAll('/', '.');
  if (!path && context === 'body') return 'a JSON object body is required';
  const where = path || context || 'request';
  return `${where}: ${issue.message ?? 'invalid value'}`;
}

const fastifyCodeToAppCode: Record<string, ErrorCode> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'GEN_ERR_BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'GEN_ERR_BAD_REQUEST',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'GEN_ERR_UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'GEN_ERR_PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'GEN_ERR_BAD_REQUEST',
};

/**
 * Turns anything a route can throw into an AppError, so every error handler formats one type.
 * 1. Schema validation failures become `validationCode` with the offending fields named.
 * 2. Fastify's own 4xx (bad JSON, wrong media type, too large) keep their status and a clear message.
 * 3. Anything else is an internal error: its detail goes to the log, never to the client.
 */
export function toAppError(error: unknown, validationCode: ErrorCode = 'GEN_ERR_BAD_REQUEST'): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof InfrastructureError) {
    return new AppError('GEN_ERR_UNAVAILABLE', { retryAfterSeconds: 5, cause: error });
  }
  const fastifyError = error as Partial<FastifyError> & { validation?: ValidationIssue[] };
  if (Array.isArray(fastifyError.validation)) {
    const message = fastifyError.validation.map((issue) => describeIssue(issue, fastifyError.validationContext)).join('; ');
    return new AppError(validationCode, { message: `Invalid ${fastifyError.validationContext ?? 'request'}: ${message}` });
  }
  const mapped = fastifyError.code ? fastifyCodeToAppCode[fastifyError.code] : undefined;
  if (mapped) {
    const message =
      fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'A JSON body is required.'
        : fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? errorCatalog.GEN_ERR_UNSUPPORTED_MEDIA_TYPE.message
          : fastifyError.message;
    return new AppError(mapped, { message, cause: error });
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('GEN_ERR_BAD_REQUEST', { message: fastifyError.message ?? 'Bad request', cause: error });
  }
  return new AppError('GEN_ERR_INTERNAL', { cause: error });
}

/** Sends an AppError with its status, Retry-After when given, and the body the service documents. */
export function sendAppError(reply: FastifyReply, error: AppError, body: Record<string, unknown>): FastifyReply {
  if (error.status >= 500) reply.log.error({ err: error.cause ?? error, code: error.code }, error.message);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return reply.code(error.status).send(body);
}

/** The generic error body for paths whose shape the spec does not show: {error, code}. */
export function genericErrorBody(error: AppError): Record<string, unknown> {
  return { error: error.message, code: error.code, ...error.details };
}

/**
 * Fastify with zod validation and the error model. Returns an instance that is not listening
 * (STYLE: build() then a tiny entry calls listen), so tests use inject().
 */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes ?? 1_048_576,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>() as unknown as HttpServer;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler((error, _request, reply) => {
    const appError = toAppError(error);
    return sendAppError(reply, appError, genericErrorBody(appError));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError('GEN_ERR_NOT_FOUND', { message: `No route for ${request.method} ${request.url.split('?')[0]}` });
    return sendAppError(reply, error, genericErrorBody(error));
  });
  if (options.metrics) recordRequestDurations(app, options.metrics);
  return app;
}

function recordRequestDurations(app: HttpServer, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequestDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
