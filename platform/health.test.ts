import { describe, expect, it } from 'vitest';
import { createHealth } from './health.js';
import { createLogger } from './log.js';

const logger = createLogger({ logLevel: 'silent' });

describe('health', () => {
  it('finding: in-process subgraphs were reported up by constant; each part is now checked and a failing one is named', async () => {
    const health = createHealth({ logger, checkTimeoutMs: 200 });
    health.register({ name: 'database', check: async () => {} });
    health.register({ name: 'subgraph forecast', check: async () => Promise.reject(new Error('connect ECONNREFUSED')) });
    health.register({ name: 'subgraph fees', check: () => new Promise(() => {}) });
    const report = await health.run();
    expect(report.healthy).toBe(false);
    expect(report.down).toEqual(['subgraph fees', 'subgraph forecast']);
    expect(report.parts['subgraph fees']).toEqual({ status: 'down', reason: 'health check of subgraph fees timed out after 200 ms' });
    expect(report.parts.database).toEqual({ status: 'up' });
  });

  it('reads a part down while its writes fail, and up after a success', async () => {
    const health = createHealth({ logger, checkTimeoutMs: 200 });
    health.reportOutcome('database writes (fees)', false, new Error('could not extend file: No space left on device'));
    expect((await health.run()).down).toEqual(['database writes (fees)']);
    expect((await health.run()).parts['database writes (fees)']).toMatchObject({ status: 'down', reason: expect.stringMatching(/No space left on device/) });
    health.reportOutcome('database writes (fees)', true);
    expect(await health.run()).toMatchObject({ healthy: true, down: [] });
  });

  it('forgets a failure nobody has repeated within its memory', async () => {
    const health = createHealth({ logger, checkTimeoutMs: 200, failureMemoryMs: 0 });
    health.reportOutcome('database writes (fees)', false, new Error('boom'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await health.run()).healthy).toBe(true);
  });
});
