import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../platform/clock.js';
import { AppError, InfrastructureError } from '../../../platform/errors.js';
import { createLogger } from '../../../platform/log.js';
import { TEST_NOW } from '../../../test/helpers.js';
import type { OracleRunRecord } from './domain/index.js';
import { createOracleReadModel } from './read-model.js';
import type { OracleRunStore } from './store.js';

const run: OracleRunRecord = {
  oracle: 'stability',
  slot: new Date(TEST_NOW),
  status: 'SUCCESS',
  runner: 'h:1',
  startedAt: new Date(TEST_NOW),
  finishedAt: new Date(TEST_NOW),
  score: 91,
  overall: 'stable',
  output: { stabilityScore: 91 },
  error: null,
};

/** A store whose database can be "killed". */
function store(state: { down: boolean; latest: OracleRunRecord | undefined; reads: number }): OracleRunStore {
  const guard = () => {
    state.reads += 1;
    if (state.down) throw new InfrastructureError('read the latest oracle run', new Error('connection refused'));
  };
  return {
    claim: async () => true,
    finish: async () => {},
    latestSuccess: async () => (guard(), state.latest),
    recent: async () => (guard(), state.latest ? [state.latest] : []),
  };
}

describe('the oracle read model', () => {
  const options = (runStore: OracleRunStore) => ({
    oracle: 'stability',
    store: runStore,
    clock: new ManualClock(TEST_NOW),
    logger: createLogger({ logLevel: 'silent' }),
    intervalSeconds: 300,
    refreshMs: 0,
  });

  it('before any run: FEE_ERR_ORACLE_NOT_READY (503 with Retry-After)', async () => {
    const model = createOracleReadModel(options(store({ down: false, latest: undefined, reads: 0 })));
    await expect(model.view()).rejects.toMatchObject({ code: 'FEE_ERR_ORACLE_NOT_READY', status: 503, retryAfterSeconds: 60 } satisfies Partial<AppError>);
  });

  it('with the database down it serves the last view it read; with none it fails as infrastructure (503)', async () => {
    const state = { down: false, latest: run, reads: 0 };
    const model = createOracleReadModel(options(store(state)));
    expect((await model.view()).latest.score).toBe(91);
    state.down = true;
    expect((await model.view()).latest.score).toBe(91);
    const fresh = createOracleReadModel(options(store(state)));
    await expect(fresh.view()).rejects.toBeInstanceOf(InfrastructureError);
  });

  it('reads the database at most once per refresh interval for any number of requests', async () => {
    const state = { down: false, latest: run, reads: 0 };
    const model = createOracleReadModel({ ...options(store(state)), refreshMs: 60_000 });
    await Promise.all(Array.from({ length: 50 }, () => model.view()));
    expect(state.reads).toBe(2);
    model.invalidate();
    await model.view();
    expect(state.reads).toBe(4);
  });
});
