import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import type { DatabaseHandle } from '../../../platform/db.js';
import { createLogger } from '../../../platform/log.js';
import { TEST_NOW, testDatabases } from '../../../test/helpers.js';
import { createOracleScheduler, type OracleJob } from './scheduler.js';
import { createOracleRunStore } from './store.js';

const INTERVAL = 300;
const logger = createLogger({ logLevel: 'silent' });
let counter = 0;

/** An oracle name of the test's own, so runs of other tests on the shared database do not count. */
const oracleName = () => `test-oracle-${process.pid}-${(counter += 1)}`;

function countingJob(oracle: string, scores: number[]): OracleJob & { calls: number } {
  const job = {
    oracle,
    calls: 0,
    async run() {
      job.calls += 1;
      const score = scores.shift();
      if (score === undefined) throw new Error('the feeds could not be read');
      // A yield to the event loop, so that concurrent schedulers really overlap.
      await new Promise((resolve) => setImmediate(resolve));
      return { score, overall: score >= 90 ? 'stable' : 'caution', output: { score } };
    },
  };
  return job;
}

describe.each(testDatabases())('oracle runs on $driver', (testDatabase) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase.open();
  });
  afterAll(async () => {
    await testDatabase.dispose(handle);
  });

  function scheduler(job: OracleJob, clock: ManualClock, runner: string) {
    return createOracleScheduler({ jobs: [job], intervalSeconds: INTERVAL, clock, store: createOracleRunStore(handle.db, 5000), runner, logger, tickMs: 1000, runTimeoutMs: 5000 });
  }

  it('runs once per interval however many replicas tick at the same moment', async () => {
    const oracle = oracleName();
    const clock = new ManualClock(TEST_NOW);
    const jobs = [0, 1, 2, 3].map(() => countingJob(oracle, [95, 94, 93]));
    const replicas = jobs.map((job, index) => scheduler(job, clock, `host:${index}`));
    await Promise.all(replicas.map((replica) => replica.tick()));
    await Promise.all(replicas.map((replica) => replica.tick()));
    expect(jobs.reduce((sum, job) => sum + job.calls, 0)).toBe(1);

    clock.advance(INTERVAL * 1000);
    await Promise.all(replicas.map((replica) => replica.tick()));
    expect(jobs.reduce((sum, job) => sum + job.calls, 0)).toBe(2);

    const runs = await createOracleRunStore(handle.db, 5000).recent(oracle, new Date(0), 10);
    expect(runs.map((run) => [run.slot.toISOString(), run.status])).toEqual([
      ['2026-11-22T12:05:00.000Z', 'SUCCESS'],
      ['2026-11-22T12:00:00.000Z', 'SUCCESS'],
    ]);
  });

  it('records a failed run as FAILED with its error, and the last good run stays the one served', async () => {
    const oracle = oracleName();
    const clock = new ManualClock(TEST_NOW);
    const job = countingJob(oracle, [88]);
    const replica = scheduler(job, clock, 'host:a');
    const store = createOracleRunStore(handle.db, 5000);
    await replica.tick();
    clock.advance(INTERVAL * 1000);
    await replica.tick();
    const [failed, good] = await store.recent(oracle, new Date(0), 10);
    expect(failed).toMatchObject({ status: 'FAILED', error: 'the feeds could not be read', score: null, output: null, runner: 'host:a' });
    expect(good).toMatchObject({ status: 'SUCCESS', score: 88, overall: 'caution', output: { score: 88 } });
    expect(await store.latestSuccess(oracle)).toMatchObject({ slot: good!.slot, score: 88 });
  });

  it('records a run that overruns its time limit as FAILED', async () => {
    const oracle = oracleName();
    const clock = new ManualClock(TEST_NOW);
    const store = createOracleRunStore(handle.db, 5000);
    const stuck: OracleJob = { oracle, run: () => new Promise(() => {}) };
    const replica = createOracleScheduler({ jobs: [stuck], intervalSeconds: INTERVAL, clock, store, runner: 'host:b', logger, tickMs: 1000, runTimeoutMs: 50 });
    await replica.tick();
    const [run] = await store.recent(oracle, new Date(0), 10);
    expect(run).toMatchObject({ status: 'FAILED', error: expect.stringContaining('timed out') });
  });

  it('a run is ended only by the runner that claimed it, and only once', async () => {
    const oracle = oracleName();
    const store = createOracleRunStore(handle.db, 5000);
    const claim = { oracle, slot: new Date(TEST_NOW), runner: 'host:c', startedAt: new Date(TEST_NOW) };
    expect(await store.claim(claim)).toBe(true);
    expect(await store.claim({ ...claim, runner: 'host:d' })).toBe(false);
    const outcome = { status: 'SUCCESS' as const, finishedAt: new Date(TEST_NOW), score: 91, overall: 'stable', output: {}, error: null };
    await store.finish({ ...claim, runner: 'host:d' }, outcome);
    expect((await store.recent(oracle, new Date(0), 1))[0]).toMatchObject({ status: 'RUNNING' });
    await store.finish(claim, outcome);
    await store.finish(claim, { ...outcome, status: 'FAILED', error: 'late' });
    expect((await store.recent(oracle, new Date(0), 1))[0]).toMatchObject({ status: 'SUCCESS', score: 91, error: null });
  });
});
