// The embedded database's own thread (decision 0093): PGlite on its data folder, migrated, then
// served on a Unix socket in a private folder by pglite-socket's multiplexer, which runs one
// connection's statements at a time and a transaction's to its end before another connection's.
// The request thread (platform/db.ts) reaches it with postgres.js, as it reaches a PostgreSQL server.
// Plain JavaScript: a worker started with a TypeScript loader took about a second longer to serve.
import { mkdirSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/** @param {import('./db.ts').PgliteWorkerData} data */
async function serve(data) {
  mkdirSync(data.dataDir, { recursive: true, mode: 0o700 });
  const client = new PGlite(data.dataDir, { pgliteWasmModule: data.pgliteWasmModule, initdbWasmModule: data.initdbWasmModule });
  // The multiplexer gives every connection this one backend session, so what a connection would set
  // at its start (search_path) is set here, once, before any connection is served.
  if (data.schemaName) await client.exec(`CREATE SCHEMA IF NOT EXISTS "${data.schemaName}"; SET search_path TO "${data.schemaName}"`);
  await migrate(drizzle({ client }), { migrationsFolder: data.migrationsFolder, ...(data.schemaName ? { migrationsSchema: data.schemaName } : {}) });
  const server = new PGLiteSocketServer({ db: client, path: data.socketPath, maxConnections: data.maxConnections });
  await server.start();
  return { server, client };
}

const port = parentPort;
if (port) {
  /** @type {import('./db.ts').PgliteWorkerData} */
  const data = workerData;
  serve(data).then(
    ({ server, client }) => {
      port.on('message', (/** @type {import('./db.ts').ToPgliteWorker} */ message) => {
        if (message.type !== 'close') return;
        // Closing PGlite writes its last state; the thread is ended by its owner once told.
        void server
          .stop()
          .then(() => client.close())
          .finally(() => port.postMessage({ type: 'closed' }));
      });
      port.postMessage({ type: 'ready' });
    },
    (error) => port.postMessage({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
}
