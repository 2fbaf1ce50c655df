import { extname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Message } from 'esbuild';

/** One file of a bundle, served at its URL path under /web/<name>/. */
export interface WebAsset {
  contentType: string;
  body: Buffer;
}

export interface WebBundle {
  /** URL path of the module script, e.g. /web/explorer/main-Q3ZQ5XKA.js. */
  scriptPath: string;
  /** URL path of the stylesheet, when the entry imports CSS. */
  stylesheetPath?: string;
  /** Every output file by URL path; names carry their content hash, so they never change in place. */
  assets: Map<string, WebAsset>;
}

export interface BundleOptions {
  /** Where JSX comes from: preact (the dashboard) or react (GraphiQL). Default preact. */
  jsxImportSource?: 'preact' | 'react';
}

const REPOSITORY_ROOT = fileURLToPath(new URL('..', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/** Files a stylesheet or a module may import besides code: emitted beside the bundle with a hashed name. */
const FILE_LOADERS = { '.woff2': 'file', '.woff': 'file', '.ttf': 'file', '.svg': 'file', '.png': 'file' } as const;

const bundles = new Map<string, Promise<WebBundle>>();

/** The URL directory of a web app's files. */
export function webAppBase(name: string): string {
  return `/web/${name}`;
}

/**
 * The browser bundle of one web app, built once per process (the first caller builds, the others
 * share its promise). A failed build is forgotten, so the next caller tries again.
 * `entry` is a path from the repository root (web/explorer/main.tsx) or an absolute one.
 */
export function bundleWebApp(name: string, entry: string, options: BundleOptions = {}): Promise<WebBundle> {
  const known = bundles.get(name);
  if (known) return known;
  const building = buildWebApp(name, resolve(REPOSITORY_ROOT, entry), options);
  bundles.set(name, building);
  building.catch(() => bundles.delete(name));
  return building;
}

/** esbuild's messages (file:line: text); its Error's own message is only "Build failed with N errors". */
function describeBuildFailure(error: unknown): string {
  const messages = (error as { errors?: Message[] }).errors;
  if (!messages?.length) return error instanceof Error ? error.message : String(error);
  return messages.map((message) => (message.location ? `${message.location.file}:${message.location.line}: ${message.text}` : message.text)).join('; ');
}

async function buildWebApp(name: string, entry: string, options: BundleOptions): Promise<WebBundle> {
  const base = webAppBase(name);
  // With write: false the output directory is only a name: the files stay in memory.
  const outdir = resolve(REPOSITORY_ROOT, 'web', '.out', name);
  const result = await build({
    absWorkingDir: REPOSITORY_ROOT,
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['chrome120', 'firefox120', 'safari16'],
    outdir,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: base,
    loader: FILE_LOADERS,
    jsx: 'automatic',
    jsxImportSource: options.jsxImportSource ?? 'preact',
    // React (and others) choose their production build, and read no `process` that a browser lacks.
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'eof',
    logLevel: 'silent',
  }).catch((error: unknown) => {
    throw new Error(`esbuild could not build web app ${name} (${entry}): ${describeBuildFailure(error)}`, { cause: error });
  });
  const assets = new Map<string, WebAsset>();
  let scriptPath: string | undefined;
  let stylesheetPath: string | undefined;
  for (const file of result.outputFiles) {
    const urlPath = `${base}/${relative(outdir, file.path).split('\\').join('/')}`;
    const extension = extname(file.path);
    assets.set(urlPath, { contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream', body: Buffer.from(file.contents) });
    if (extension === '.js') scriptPath = urlPath;
    if (extension === '.css') stylesheetPath = urlPath;
  }
  if (!scriptPath) throw new Error(`esbuild wrote no script for web app ${name} (${entry})`);
  return { scriptPath, ...(stylesheetPath ? { stylesheetPath } : {}), assets };
}
