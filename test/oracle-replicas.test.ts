import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oracleRuns } from '../drizzle/schema.js';
import { type DatabaseHandle, dropSchema, openDatabase } from '../platform/db.js';
import { startTestServer, TEST_NOW, type TestServer } from './helpers.js';

/** PostgreSQL runs on every machine of the project and on CI (which sets DATABASE_URL to the same). */
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `t_oracles_${process.pid}_${Date.now().toString(36)}`;
const INTERVAL_SECONDS = 300;
const ORACLES = ['stability', 'esg'];

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Issue 11 acceptance: two servers on one PostgreSQL database run each scheduled oracle once per interval. */
describe('oracle runs with two servers on one PostgreSQL database', () => {
  const handles: DatabaseHandle[] = [];
  const servers: TestServer[] = [];

  beforeAll(async () => {
    for (let index = 0; index < 2; index += 1) handles.push(await openDatabase({ databaseUrl: DATABASE_URL, schemaName: SCHEMA, poolSize: 4 }));
    // Both start at the same moment: both try the first interval in start().
    servers.push(
      ...(await Promise.all(
        handles.map((database) =>
          startTestServer({ database, subgraphs: ['fees'], gateway: false, environment: { ORACLE_SCHEDULER: 'true', ORACLE_UPDATE_FREQUENCY_SECONDS: String(INTERVAL_SECONDS) } }),
        ),
      )),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(handles.map((handle) => handle.close()));
    await dropSchema(DATABASE_URL, SCHEMA);
  });

  const runsOf = () => handles[0]!.db.select().from(oracleRuns).where(inArray(oracleRuns.oracle, ORACLES));

  it('one run per oracle per interval, whichever server claims it, over three intervals', async () => {
    for (let interval = 0; interval < 3; interval += 1) {
      if (interval > 0) for (const server of servers) server.clock.advance(INTERVAL_SECONDS * 1000);
      const slot = new Date(Date.parse(TEST_NOW) + interval * INTERVAL_SECONDS * 1000);
      const inSlot = () => handles[0]!.db.select().from(oracleRuns).where(eq(oracleRuns.slot, slot));
      const rows = await until(inSlot, (found) => found.length === ORACLES.length && found.every((row) => row.status !== 'RUNNING'), `the runs of ${slot.toISOString()}`);
      expect(rows.map((row) => [row.oracle, row.status]).sort()).toEqual([
        ['esg', 'SUCCESS'],
        ['stability', 'SUCCESS'],
      ]);
    }
    // Both schedulers tick every second: a few more ticks add nothing.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const all = await runsOf();
    expect(all).toHaveLength(3 * ORACLES.length);
    const bySlotAndOracle = new Set(all.map((row) => `${row.oracle}@${row.slot.toISOString()}`));
    expect(bySlotAndOracle.size).toBe(all.length);
  });

  it('both servers serve the same figures from the record', async () => {
    const read = () => Promise.all(servers.map(async (server) => (await server.app.inject({ method: 'GET', url: '/stability/reliability' })).json<Record<string, unknown>>()));
    const withoutTime = (answers: Array<Record<string, unknown>>) => answers.map(({ timestamp: _, ...rest }) => JSON.stringify(rest));
    // A server re-reads the record every 5 s (or at once after its own run): wait until both have.
    const answers = await until(read, (both) => new Set(withoutTime(both)).size === 1, 'both servers to read the same runs');
    const [first] = answers;
    expect(first).toMatchObject({ oracle: { status: 'SUCCESS', uptimePct: 100, updateFrequencySeconds: INTERVAL_SECONDS } });
    const stability = await handles[1]!.db
      .select()
      .from(oracleRuns)
      .where(and(eq(oracleRuns.oracle, 'stability'), eq(oracleRuns.status, 'SUCCESS')));
    expect(stability).toHaveLength(3);
  });
});
