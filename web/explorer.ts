import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HttpServer } from '../platform/http.js';
import { registerWebApp, type WebApp } from './serve.js';

const explorers = new WeakMap<HttpServer, WebApp>();

/**
 * The GraphQL explorer (GraphiQL, web/explorer/main.tsx) of this server, registered once whichever
 * endpoint asks first: its files under /web/explorer/; its page is the answer a browser gets from a
 * GraphQL endpoint, and /explorer where the gateway is.
 */
export function explorerOf(app: HttpServer): WebApp {
  let explorer = explorers.get(app);
  if (!explorer) {
    explorer = registerWebApp(app, {
      name: 'explorer',
      entry: 'web/explorer/main.tsx',
      jsxImportSource: 'react',
      title: 'GraphQL explorer: settlement rail',
      description: 'Query the settlement rail graph in the browser (GraphiQL, served by this server, no CDN).',
      pagePaths: [],
    });
    explorers.set(app, explorer);
  }
  return explorer;
}

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  order: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part, order) => {
    const [range = '', ...parameters] = part.trim().toLowerCase().split(';');
    const [type, subtype] = range.trim().split('/');
    if (!type || !subtype) return [];
    const qParameter = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    const q = qParameter ? Number(qParameter.slice(2)) : 1;
    return Number.isFinite(q) ? [{ type, subtype, q, order }] : [];
  });
}

/** How `mediaType` ranks under the ranges: the most specific range naming it, then its q (as the negotiator package ranks). */
function rank(ranges: MediaRange[], mediaType: string): { q: number; specificity: number; order: number } {
  const [type, subtype] = mediaType.split('/');
  let best = { q: 0, specificity: -1, order: Number.MAX_SAFE_INTEGER };
  for (const range of ranges) {
    const typeMatches = range.type === type || range.type === '*';
    const subtypeMatches = range.subtype === subtype || range.subtype === '*';
    if (!typeMatches || !subtypeMatches) continue;
    const specificity = (range.type === type ? 4 : 0) + (range.subtype === subtype ? 2 : 0);
    if (specificity > best.specificity || (specificity === best.specificity && (range.q > best.q || (range.q === best.q && range.order < best.order)))) {
      best = { q: range.q, specificity, order: range.order };
    }
  }
  return best;
}

/** What Apollo Server offers before text/html (multipart/mixed for @defer and subscriptions). */
const GRAPHQL_ANSWER_TYPES = ['application/json', 'application/graphql-response+json', 'multipart/mixed'];

/**
 * Whether a request's Accept prefers text/html to the GraphQL answers, Apollo Server's test for its
 * landing page: html must rank above each of them by q, then by how specifically it is named,
 * then by where it is named; a tie goes to them, so `*\/*` and no Accept at all get JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const html = rank(ranges, 'text/html');
  if (html.q <= 0) return false;
  return GRAPHQL_ANSWER_TYPES.every((mediaType) => {
    const other = rank(ranges, mediaType);
    if (html.q !== other.q) return html.q > other.q;
    if (html.specificity !== other.specificity) return html.specificity > other.specificity;
    return html.order < other.order;
  });
}

/**
 * A GraphQL route's preHandler: a browser's GET (Accept preferring text/html) gets the explorer's
 * page instead of Apollo's landing page, which loads from a CDN. Every other request goes on to
 * Apollo untouched, GET queries included.
 */
export function answerBrowsersWithExplorer(explorer: WebApp) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (request.method !== 'GET' || !prefersHtml(request.headers.accept)) return undefined;
    return explorer.sendPage(reply);
  };
}
