import { describe, expect, it } from 'vitest';
import { INTERVAL, minutes, run, T0 } from '../../runs/testing.js';
import { buildEsgHealth, buildEsgReliability, buildEsgScore, type EsgRunOutput } from './views.js';

describe('ESG views', () => {
  const output: EsgRunOutput = {
    scores: { environmental: 60, social: 70, governance: 80, average: 70 },
    fee: { pct: 0.15, bps: 15, tier: 'GOOD', formula: '(100 - esgScore) / 200' },
    dataQuality: 'ESTIMATED',
    asOf: '2025-07-01',
  };
  const good = run(0, 'SUCCESS', output, 70);

  it('GET /esg-score: scores, fee, data quality', () => {
    expect(buildEsgScore({ latest: good, recent: [good] }, minutes(1))).toEqual({
      schema: 'srg-esg-score/1.0',
      timestamp: minutes(1).toISOString(),
      scores: output.scores,
      fee: output.fee,
      dataQuality: 'ESTIMATED',
      asOf: '2025-07-01',
    });
  });

  it('GET /reliability and /health of the ESG oracle from the record', () => {
    const body = buildEsgReliability({ latest: good, recent: [good] }, minutes(1), INTERVAL);
    expect(body).toMatchObject({
      isHealthy: true,
      oracle: { status: 'SUCCESS', uptimePct: 100 },
      scores: { current: 70, averageScore24h: 70, history: [{ timestamp: T0.getTime() / 1000, ...output.scores }] },
    });
    expect(buildEsgHealth({ latest: good, recent: [good] }, minutes(1), INTERVAL)).toEqual({
      status: 'healthy',
      esgOracle: 'SUCCESS',
      uptimeSeconds: 59,
      uptimeHuman: '0h 0m 59s',
      timestamp: minutes(1).toISOString(),
    });
    expect(buildEsgHealth({ latest: good, recent: [run<EsgRunOutput>(5, 'FAILED', null, null), good] }, minutes(6), INTERVAL)).toMatchObject({ status: 'degraded', esgOracle: 'FAILED' });
  });
});
