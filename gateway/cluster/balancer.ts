import replyFrom from '@fastify/reply-from';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { genericErrorBody } from '../../platform/http.js';
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

/** The 503 a request gets when no process of its kind can answer it, in the generic {error, code} shape. */
function unavailable(message: string): { status: number; headers: Record<string, string>; body: Record<string, unknown> } {
  const error = new AppError('GEN_ERR_UNAVAILABLE', { message });
  return { status: error.status, headers: { 'retry-after': '1', 'content-type': 'application/json; charset=utf-8' }, body: genericErrorBody(error) };
}

/**
 * One listening port in front of several processes (decision 0088): every request goes, untouched
 * (body streamed, not parsed), to the next process that is up of the kind its path belongs to.
 * A process that dies mid-request leaves that request answered 503 GEN_ERR_UNAVAILABLE; the next
 * ones go to the others. A request is never sent twice.
 */
export async function createBalancer(options: BalancerOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024, requestIdHeader: false, return503OnClosing: true });
  // Bodies are passed on as they came: the processes behind validate them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(replyFrom, {
    undici: { headersTimeout: UPSTREAM_TIMEOUT_MS, bodyTimeout: UPSTREAM_TIMEOUT_MS, keepAliveTimeout: 4_000 },
    disableRequestLogging: true,
  });
  if (options.health) {
    const answerHealth = options.health;
    app.get('/health', (_request, reply) => answerHealth(reply));
  }
  app.all('/*', (request, reply) => {
    const kind = options.route(request.url);
    const origin = options.pick(kind);
    if (!origin) {
      const answer = unavailable(`no ${kind} process is up; retry shortly`);
      return reply.code(answer.status).headers(answer.headers).send(answer.body);
    }
    return reply.from(`${origin}${request.url}`, {
      onError: (failed) => {
        const answer = unavailable(`the ${kind} process answering this request stopped; retry it`);
        failed.code(answer.status).headers(answer.headers).send(answer.body);
      },
    });
  });
  return app;
}
