import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../test/helpers.js';
import { type DatabaseHandle, databaseWorker, openDatabase, pgliteFolder } from './db.js';
import { InfrastructureError, isUnreachable } from './errors.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Every file and folder under `path` with group or other permission bits (none should have any). */
function openToOthers(path: string): string[] {
  const mode = statSync(path).mode;
  const here = (mode & 0o077) === 0 ? [] : [path];
  return statSync(path).isDirectory() ? [...here, ...readdirSync(path).flatMap((entry) => openToOthers(`${path}/${entry}`))] : here;
}

/** A postgres.js result's rows, as plain objects. */
const rows = (result: unknown) => [...(result as Iterable<unknown>)];

/** The Unix socket folders the open handles listen in (postgres.js's `host`). */
function socketFolder(handle: DatabaseHandle): string {
  const client = (handle.db as unknown as { $client: { options: { host: string[] } } }).$client;
  return client.options.host[0]!;
}

/**
 * The on-disk embedded database (decision 0093): PGlite in a worker thread, served on a Unix
 * socket and reached with postgres.js. The stores' behaviour on it is the driver conformance
 * suites' (testDatabases() names it pglite-worker); these are what only this driver has.
 */
describe('the embedded database in its worker thread', () => {
  let dataDir: string;
  let otherDataDir: string;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    dataDir = await migratedDataDir();
    otherDataDir = await migratedDataDir();
    handle = await openDatabase({ pgliteDataDir: pgliteFolder(dataDir), poolSize: 4 });
  });

  afterAll(async () => {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDataDir, { recursive: true, force: true });
  });

  it('keeps the one-process semantics of PGlite (driver pglite), listens on a socket in a private short path, and leaves no file open to other users', async () => {
    expect(handle.driver).toBe('pglite');
    const folder = socketFolder(handle);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(`${folder}/.s.PGSQL.5432`.length).toBeLessThan(108);
    expect(statSync(`${folder}/.s.PGSQL.5432`).isSocket()).toBe(true);
    await handle.ping();
    expect(openToOthers(pgliteFolder(dataDir))).toEqual([]);
  });

  it('answers each of many concurrent queries on several connections with its own rows', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => handle.db.execute(sql`select ${index}::int as n, ${`text ${index}`}::text as label`)));
    answers.forEach((answer, index) => expect(rows(answer)).toEqual([{ n: index, label: `text ${index}` }]));
  });

  it("runs a transaction to its end before another connection's statements: they do not see its rows before the commit, nor a rolled-back one's ever", async () => {
    await handle.db.execute(sql`create table if not exists worker_probe (id int primary key)`);
    let seenDuring: unknown;
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into worker_probe values (1)`);
      // Sent on another connection while the transaction is open: it waits for the commit.
      seenDuring = handle.db.execute(sql`select count(*)::int as count from worker_probe`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.execute(sql`insert into worker_probe values (2)`);
    });
    expect(rows(await seenDuring)).toEqual([{ count: 2 }]);
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into worker_probe values (3)`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(rows(await handle.db.execute(sql`select id from worker_probe order by id`))).toEqual([{ id: 1 }, { id: 2 }]);
  });

  /** A raw connection to the worker's socket, past its startup exchange, as a client that is not postgres.js. */
  async function rawConnection(): Promise<Socket> {
    const socket = createConnection(`${socketFolder(handle)}/.s.PGSQL.5432`);
    await new Promise((resolve) => socket.once('connect', resolve));
    const parameters = Buffer.from('user\0postgres\0database\0postgres\0\0');
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8 + parameters.length, 0);
    startup.writeInt32BE(196608, 4); // protocol 3.0
    socket.write(Buffer.concat([startup, parameters]));
    await new Promise((resolve) => socket.once('data', resolve));
    return socket;
  }

  const simpleQuery = (text: string) => {
    const body = Buffer.from(`${text}\0`);
    const header = Buffer.alloc(5);
    header[0] = 0x51;
    header.writeInt32BE(4 + body.length, 1);
    return Buffer.concat([header, body]);
  };

  it('finding (review of 0093): a message length under 4 cut the connection off from nothing: the thread looped on it; now that connection is closed and the others are served', async () => {
    const socket = await rawConnection();
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(Buffer.from([0x50, 0xff, 0xff, 0xff, 0xff]));
    await closed;
    expect(rows(await handle.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });

  it('finding (review of 0093): a connection gone while its BEGIN ran left its transaction holding every other connection; now it is rolled back', async () => {
    const socket = await rawConnection();
    socket.write(simpleQuery('BEGIN'));
    socket.destroy();
    expect(rows(await handle.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
  });

  it('finding (review of 0093): a process that exits without closing (a failed start) left its socket folder in the temporary directory; now it is removed at exit', () => {
    const script = `import { openDatabase } from './platform/db.ts'; const h = await openDatabase({ pgliteDataDir: process.argv[1] }); console.log(h.db.$client.options.host[0]); process.exit(3);`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, pgliteFolder(otherDataDir)], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 });
    expect(child.status).toBe(3);
    const folder = child.stdout.trim();
    expect(folder).toMatch(/srg-pglite-/);
    expect(existsSync(folder)).toBe(false);
  });

  it('keeps what was committed across a close and a new open of the folder', async () => {
    await handle.close();
    expect(() => statSync(socketFolder(handle))).toThrow();
    handle = await openDatabase({ pgliteDataDir: pgliteFolder(dataDir), poolSize: 2 });
    expect(rows(await handle.db.execute(sql`select id from worker_probe order by id`))).toEqual([{ id: 1 }, { id: 2 }]);
    expect(openToOthers(pgliteFolder(dataDir))).toEqual([]);
  });

  it('a thread that dies fails every query at once as unreachable (a 503), and ping with an InfrastructureError, instead of hanging', async () => {
    await databaseWorker(handle)!.terminate();
    const failure = await handle.db.execute(sql`select 1`).catch((error: unknown) => error);
    expect(isUnreachable(failure)).toBe(true);
    await expect(handle.ping()).rejects.toBeInstanceOf(InfrastructureError);
  });
});
