import replyFrom from '@fastify/reply-from';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { answerMalformedRequest, genericErrorBody } from '../../platform/http.js';
import type { ProcessKind } from './supervisor.js';

/** How long the balancer waits for a process's answer: above REQUEST_TIMEOUT_MS, so the rail's own 503 comes first. */
const UPSTREAM_TIMEOUT_MS = 30_000;

/** Which kind of process answers a path (the longest matching prefix wins; the gateways answer the rest). */
export type RouteTable = ReadonlyMap<string, ProcessKind>;

export function routeFor(table: RouteTable, url: string, fallback: ProcessKind): ProcessKind {
  const path = url.split('?', 1)[0] ?? '/';
  let best: { prefix: string; kind: ProcessKind } | undefined;
  for (const [prefix, kind] of table) {
    const matches = path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
    if (matches && (!best || prefix.length > best.prefix.length)) best = { prefix, kind };
  }
  return best?.kind ?? fallback;
}

/** The origins of the processes of one kind that are up, in turn (round robin); undefined when none is. */
export type PickUpstream = (kind: ProcessKind) => string | undefined;

export interface BalancerOptions {
  /** The kind answering a path. */
  route: (url: string) => ProcessKind;
  pick: PickUpstream;
  /** Answers GET /health itself (the cluster's view) instead of passing it on. */
  health?: (reply: FastifyReply) => Promise<FastifyReply>;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The 503 a request gets when no process of its kind can answer it, in the generic {error, code} shape. */
function unavailable(message: string): Answer {
  const error = new AppError('GEN_ERR_UNAVAILABLE', { message });
  return { status: error.status, headers: { 'retry-after': '1', 'content-type': 'application/json; charset=utf-8' }, body: genericErrorBody(error) };
}

function badRequest(message: string): Answer {
  const error = new AppError('GEN_ERR_BAD_REQUEST', { message });
  return { status: error.status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: genericErrorBody(error) };
}

/**
 * The URL on `origin` a request-target names, or undefined when it would name another host: only
 * a path ("origin-form", RFC 9112 §3.2.1) is passed on, never an absolute URL or `//host`, so no
 * caller makes the balancer reach anything but the processes behind it.
 */
export function upstreamUrl(origin: string, target: string): string | undefined {
  if (!target.startsWith('/') || target.startsWith('//')) return undefined;
  const url = new URL(`${origin}${target}`);
  return url.origin === origin ? url.href : undefined;
}

/** The path and query a request-target is passed on as (dot segments resolved as a URL resolves them); undefined when it is not a path. */
function pathPassedOn(target: string): string | undefined {
  const placeholder = 'http://balancer.invalid';
  const url = upstreamUrl(placeholder, target);
  return url === undefined ? undefined : url.slice(placeholder.length);
}

/** Headers of one connection (RFC 9110 §7.6.1), which a proxy does not pass on; Node sets the client's own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** A process's answer headers without those of its connection to the balancer (or those its Connection header names). */
export function endToEndHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.includes(name)));
}

/**
 * One listening port in front of several processes (decision 0088): every request goes, untouched
 * (body streamed, not parsed), to the next process that is up of the kind its path belongs to.
 * A process that dies mid-request leaves that request answered 503 GEN_ERR_UNAVAILABLE; the next
 * ones go to the others. A request is never sent twice.
 */
export async function createBalancer(options: BalancerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024, requestIdHeader: false, return503OnClosing: true, clientErrorHandler: answerMalformedRequest });
  // Bodies are passed on as they came: the processes behind validate them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(replyFrom, {
    undici: { headersTimeout: UPSTREAM_TIMEOUT_MS, bodyTimeout: UPSTREAM_TIMEOUT_MS, keepAliveTimeout: 4_000 },
    // reply-from sends a GET answered 503 again, up to ten times: never (decision 0088), a 503 is the client's to retry.
    retryMethods: [],
    disableRequestLogging: true,
  });
  if (options.health) {
    const answerHealth = options.health;
    app.get('/health', (_request, reply) => answerHealth(reply));
  }
  app.setErrorHandler((error, _request, reply) => {
    const answer = (error as { statusCode?: number }).statusCode === 400 ? badRequest('the request is malformed') : unavailable('the request could not be passed on; retry it');
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  app.all('/*', (request, reply) => {
    const send = (answer: Answer) => reply.code(answer.status).headers(answer.headers).send(answer.body);
    // Routed by the path passed on (dot segments resolved), not the one written: /stability/../admin is /admin.
    const target = pathPassedOn(request.url);
    if (!target) return send(badRequest('the request-target must be a path (origin-form)'));
    const kind = options.route(target);
    const origin = options.pick(kind);
    if (!origin) return send(unavailable(`no ${kind} process is up; retry shortly`));
    const url = upstreamUrl(origin, target);
    if (!url) return send(badRequest('the request-target must be a path (origin-form)'));
    return reply.from(url, {
      rewriteHeaders: endToEndHeaders,
      onError: (failed) => {
        const answer = unavailable(`the ${kind} process answering this request stopped; retry it`);
        failed.code(answer.status).headers(answer.headers).send(answer.body);
      },
    });
  });
  return app;
}
