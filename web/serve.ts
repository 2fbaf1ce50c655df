// A browser app of the project (the dashboard, the GraphQL explorer) is a TSX entry under web/ that
// esbuild bundles in memory (web/bundle.ts) and this file serves:
// 1. an HTML shell at each page path: no inline script or style, only the hashed stylesheet and
//    module script, so the strict Content-Security-Policy below holds for the page and its assets;
// 2. the bundle's files under /web/<name>/, named by their content hash and cached for a year.
// The build runs when the first request needs it (then memoised), or in the background from the
// moment the server listens (buildWhenListening), so `npm start` needs no build step and is not delayed by one. A
// failed build answers 503 in the platform's error shape, logged with its cause.
import type { FastifyReply } from 'fastify';
import type { HelmetOptions } from 'helmet';
import { AppError } from '../platform/errors.js';
import type { HttpServer } from '../platform/http.js';
import { bundleWebApp, webAppBase, type WebBundle } from './bundle.js';

export interface WebAppOptions {
  /** Names the bundle and its URL directory /web/<name>/. */
  name: string;
  /** The TSX entry, from the repository root (web/explorer/main.tsx). */
  entry: string;
  title: string;
  pagePaths: string[];
  jsxImportSource?: 'preact' | 'react';
  description?: string;
  /**
   * Start the build when the server listens, so the first visit does not wait for it: for the
   * dashboard at / of a gateway. The explorer, offered by every GraphQL endpoint (five subgraph
   * processes in the split layout), is built when a browser first asks for it.
   */
  buildWhenListening?: boolean;
}

/** Everything from this server and nothing else; no inline script or style, no eval, no framing, no form posts. */
export const WEB_CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

/** The route option `helmet` of a web page or asset (platform/security-headers.ts). */
export const WEB_SECURITY_HEADERS: HelmetOptions = { contentSecurityPolicy: { useDefaults: false, directives: WEB_CSP_DIRECTIVES } };

const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface WebApp {
  /** Serves the app's page at one more path. */
  addPage(path: string): void;
  /** Answers with the app's HTML shell (for a route of another owner, such as a browser's GET /graphql). */
  sendPage(reply: FastifyReply): Promise<FastifyReply>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function renderShell(options: Pick<WebAppOptions, 'title' | 'description'>, bundle: WebBundle): string {
  const description = options.description ? `\n<meta name="description" content="${escapeHtml(options.description)}">` : '';
  const stylesheet = bundle.stylesheetPath ? `\n<link rel="stylesheet" href="${bundle.stylesheetPath}">` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>${description}
<link rel="icon" href="data:,">${stylesheet}
<script type="module" src="${bundle.scriptPath}"></script>
</head>
<body>
<main id="app"><noscript>${escapeHtml(options.title)} needs JavaScript: enable it for this site to use the page.</noscript></main>
</body>
</html>
`;
}

async function bundleOrUnavailable(options: WebAppOptions): Promise<WebBundle> {
  try {
    return await bundleWebApp(options.name, options.entry, options.jsxImportSource ? { jsxImportSource: options.jsxImportSource } : {});
  } catch (error) {
    throw new AppError('GEN_ERR_UNAVAILABLE', { message: `The ${options.name} web app could not be built; see the server log.`, retryAfterSeconds: 5, cause: error });
  }
}

/** Serves a web app's pages and files (see the comment at the top of this file). */
export function registerWebApp(app: HttpServer, options: WebAppOptions): WebApp {
  const sendPage = async (reply: FastifyReply) => {
    const page = renderShell(options, await bundleOrUnavailable(options));
    // The page names the current hashed files: revalidated on every visit, unlike the files.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  };
  const addPage = (path: string) => {
    app.get(path, { helmet: WEB_SECURITY_HEADERS, config: { inputCheckedBy: 'page' } }, (_request, reply) => sendPage(reply));
  };
  for (const path of options.pagePaths) addPage(path);
  app.get<{ Params: { file: string } }>(`${webAppBase(options.name)}/:file`, { helmet: WEB_SECURITY_HEADERS }, async (request, reply) => {
    const asset = (await bundleOrUnavailable(options)).assets.get(`${webAppBase(options.name)}/${request.params.file}`);
    if (!asset) throw new AppError('GEN_ERR_NOT_FOUND', { message: `No file ${request.params.file} in the ${options.name} web app.` });
    return reply.type(asset.contentType).header('cache-control', IMMUTABLE).send(asset.body);
  });
  if (options.buildWhenListening) {
    app.addHook('onListen', (done) => {
      bundleOrUnavailable(options).catch((error: unknown) => app.log.error({ err: error }, `web app ${options.name}: the background build failed`));
      done();
    });
  }
  return { addPage, sendPage };
}
