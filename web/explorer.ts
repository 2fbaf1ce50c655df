import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
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

/** What Apollo Server offers, text/html last so that a tie goes to a GraphQL answer (multipart/mixed: @defer, subscriptions). */
const OFFERED_TYPES = ['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html'];

/**
 * Whether a request's Accept prefers text/html to the GraphQL answers, Apollo Server's own test for
 * its landing page (negotiator, as Apollo uses): `*\/*` and no Accept at all get JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  return new Negotiator({ headers: { accept } }).mediaType(OFFERED_TYPES) === 'text/html';
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
