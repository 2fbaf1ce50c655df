// The embedded database's own thread (decision 0093): PGlite on its data folder, migrated, then
// served on a Unix socket in a private folder, where platform/db.ts reaches it with postgres.js as
// it reaches a PostgreSQL server. Plain JavaScript: a worker started with a TypeScript loader took
// about a second longer to serve.
import { Buffer } from 'node:buffer';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Sync and Query end an exchange; Flush asks for the answers so far, the exchange going on. */
const SYNC = 0x53;
const QUERY = 0x51;
const FLUSH = 0x48;
const TERMINATE = 0x58;
/** Bounds of what one connection may send: a startup packet, and one message or exchange (a 500-row batch is a few MB). */
const MAX_STARTUP_BYTES = 10_000;
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/**
 * Every connection shares PGlite's one backend session, so their messages must not interleave:
 * a connection's exchange (its messages up to Sync, or a Query) runs whole, and while it holds a
 * transaction open, or has flushed mid-exchange, no other connection's runs. pglite-socket's
 * multiplexer queued single messages, and under load another connection's Parse landed between
 * one's Parse and Bind (seen: "bind message supplies 2 parameters, but prepared statement "" requires 5").
 */
class Multiplexer {
  /** @param {PGlite} db */
  constructor(db) {
    this.db = db;
    /** @type {Array<{ socket: import('node:net').Socket; messages: Buffer[]; ends: boolean }>} */
    this.queue = [];
    /** @type {import('node:net').Socket | undefined} */
    this.owner = undefined;
    this.running = false;
  }

  /** @param {import('node:net').Socket} socket @param {Buffer[]} messages @param {boolean} ends */
  submit(socket, messages, ends) {
    this.queue.push({ socket, messages, ends });
    void this.pump();
  }

  async pump() {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const index = this.owner ? this.queue.findIndex((exchange) => exchange.socket === this.owner) : 0;
        if (index < 0 || this.queue.length === 0) return;
        const [exchange] = this.queue.splice(index, 1);
        await this.run(exchange);
        // A connection that closed while its exchange ran was released before it became the
        // owner: what it left open is rolled back here, or it would hold every other connection.
        if (exchange.socket.destroyed) await this.rollBackOpen();
        else this.owner = this.db.isInTransaction() || !exchange.ends ? exchange.socket : undefined;
      }
    } finally {
      this.running = false;
    }
  }

  /** @param {{ socket: import('node:net').Socket; messages: Buffer[] }} exchange */
  async run({ socket, messages }) {
    try {
      await this.db.runExclusive(async () => {
        for (const message of messages) {
          await this.db.execProtocolRawStream(new Uint8Array(message), { onRawData: (data) => socket.writable && socket.write(Buffer.from(data)) });
        }
      });
    } catch {
      socket.destroy();
    }
  }

  /** A connection gone: its queued exchanges dropped, its open transaction rolled back. @param {import('node:net').Socket} socket */
  async release(socket) {
    this.queue = this.queue.filter((exchange) => exchange.socket !== socket);
    if (this.owner !== socket) return;
    await this.rollBackOpen();
    void this.pump();
  }

  async rollBackOpen() {
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined);
    this.owner = undefined;
  }
}

/** Splits a connection's bytes into protocol messages and hands the multiplexer whole exchanges. @param {import('node:net').Socket} socket @param {Multiplexer} multiplexer */
function serveConnection(socket, multiplexer) {
  let buffer = Buffer.alloc(0);
  let started = false;
  /** @type {Buffer[]} */
  let exchange = [];
  let exchangeBytes = 0;
  /** A length no client of ours sends: the connection is cut, or a length under 4 would never consume the buffer. */
  /** @param {number} length @param {number} least @param {number} most */
  const refused = (length, least, most) => {
    if (length >= least && length <= most) return false;
    socket.destroy();
    return true;
  };
  const nextStartupMessage = () => {
    if (buffer.length < 8) return false;
    const length = buffer.readInt32BE(0);
    if (refused(length, 8, MAX_STARTUP_BYTES) || buffer.length < length) return false;
    const code = buffer.readInt32BE(4);
    const message = buffer.subarray(0, length);
    buffer = buffer.subarray(length);
    if (code === SSL_REQUEST || code === GSSENC_REQUEST) socket.write('N');
    else if (code === CANCEL_REQUEST) socket.end();
    else {
      started = true;
      multiplexer.submit(socket, [Buffer.from(message)], true);
    }
    return true;
  };
  const nextMessage = () => {
    if (buffer.length < 5) return false;
    const length = 1 + buffer.readInt32BE(1);
    if (refused(length - 1, 4, MAX_MESSAGE_BYTES) || buffer.length < length) return false;
    const type = buffer[0];
    const message = Buffer.from(buffer.subarray(0, length));
    buffer = buffer.subarray(length);
    if (type === TERMINATE) {
      socket.end();
      return false;
    }
    exchange.push(message);
    exchangeBytes += length;
    if (refused(exchangeBytes, 0, MAX_MESSAGE_BYTES)) return false;
    if (type === SYNC || type === QUERY || type === FLUSH) {
      multiplexer.submit(socket, exchange, type !== FLUSH);
      exchange = [];
      exchangeBytes = 0;
    }
    return true;
  };
  socket.on('data', (chunk) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    while (started ? nextMessage() : nextStartupMessage());
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => void multiplexer.release(socket));
}

/** @param {import('./db.ts').PgliteWorkerData} data */
async function serve(data) {
  mkdirSync(data.dataDir, { recursive: true, mode: 0o700 });
  const db = new PGlite(data.dataDir, { pgliteWasmModule: data.pgliteWasmModule, initdbWasmModule: data.initdbWasmModule });
  // Every connection is this one backend session, so what a connection would set at its start
  // (search_path) is set here, once, before any connection is served.
  if (data.schemaName) await db.exec(`CREATE SCHEMA IF NOT EXISTS "${data.schemaName}"; SET search_path TO "${data.schemaName}"`);
  await migrate(drizzle({ client: db }), { migrationsFolder: data.migrationsFolder, ...(data.schemaName ? { migrationsSchema: data.schemaName } : {}) });
  const multiplexer = new Multiplexer(db);
  /** @type {Set<import('node:net').Socket>} */
  const sockets = new Set();
  const server = createServer((socket) => {
    if (sockets.size >= data.maxConnections) return void socket.destroy();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serveConnection(socket, multiplexer);
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(data.socketPath, () => resolve(undefined)));
  const close = async () => {
    await new Promise((resolve) => {
      server.close(() => resolve(undefined));
      for (const socket of sockets) socket.destroy();
    });
    // Closing PGlite writes its last state.
    await db.close();
  };
  return close;
}

const port = parentPort;
if (port) {
  /** @type {import('./db.ts').PgliteWorkerData} */
  const data = workerData;
  serve(data).then(
    (close) => {
      port.on('message', (/** @type {import('./db.ts').ToPgliteWorker} */ message) => {
        if (message.type === 'close') void close().finally(() => port.postMessage({ type: 'closed' }));
      });
      port.postMessage({ type: 'ready' });
    },
    (error) => port.postMessage({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
}
