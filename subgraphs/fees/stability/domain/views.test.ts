import { describe, expect, it } from 'vitest';
import type { OracleRunRecord } from '../../runs/domain/index.js';
import { INTERVAL, minutes, run, T0 } from '../../runs/testing.js';
import { buildOracleHistory, buildOracleStatus, buildReliability, buildStabilityHealth, type StabilityRunOutput } from './views.js';

const thresholds = { stable: 90, caution: 75, unstable: 0 };
const network = { name: 'base', chainId: 8453 };

function stabilityOutput(score: number, overrides: Partial<StabilityRunOutput> = {}): StabilityRunOutput {
  return {
    stabilityScore: score,
    overall: score >= 90 ? 'stable' : score >= 75 ? 'caution' : 'unstable',
    confidence: 82,
    dataQuality: 'LIVE',
    asOf: '2026-10-07',
    peg: { deviationBps: 12, deviationThresholdBps: 50, basketWeights: { USDC: 0.6, USDT: 0.4 }, alert: false, verificationCycleSeconds: 60 },
    usdHealth: { score: 70 },
    feeds: [{ feed: 'FRED T10Y2Y', mode: 'snapshot', status: 'ok' }],
    alerts: [],
    ...overrides,
  };
}

describe('stability views', () => {
  const good = run(0, 'SUCCESS', stabilityOutput(92), 92);
  const older = run(-5, 'SUCCESS', stabilityOutput(88), 88);

  it('GET /reliability: every documented field from the latest successful run and the record', () => {
    const body = buildReliability({ latest: good, recent: [good, older] }, minutes(6), INTERVAL, thresholds);
    expect(body).toEqual({
      schema: 'srg-reliability/1.0',
      timestamp: minutes(6).toISOString(),
      isHealthy: true,
      oracle: { status: 'SUCCESS', lastUpdate: '2026-11-22T12:00:04.000Z', uptimeSeconds: 659, uptimePct: 100, updateFrequencySeconds: 300 },
      stability: { currentScore: 92, averageScore24h: 90, threshold: thresholds },
      peg: { deviationBps: 12, deviationThresholdBps: 50, basketWeights: { USDC: 0.6, USDT: 0.4 }, verificationCycleSeconds: 60 },
      confidence: { score: 82, scale: '0-100' },
      usdHealth: { score: 70 },
      dataQuality: 'LIVE',
      asOf: '2026-10-07',
    });
  });

  it('is not healthy with a peg alert, a feed down, a failed newest run or a stale output', () => {
    const view = (latest: OracleRunRecord<StabilityRunOutput>, recent = [latest]) => ({ latest, recent });
    const at = minutes(6);
    expect(buildReliability(view(run(0, 'SUCCESS', stabilityOutput(95, { peg: { ...stabilityOutput(95).peg, deviationBps: 50, alert: true } }), 95)), at, INTERVAL, thresholds).isHealthy).toBe(false);
    const feedDown = stabilityOutput(95, { feeds: [{ feed: 'FRED T10Y2Y', mode: 'live', status: 'fallback', reason: 'timed out' }] });
    expect(buildReliability(view(run(0, 'SUCCESS', feedDown, 95)), at, INTERVAL, thresholds).isHealthy).toBe(false);
    const failedAfter = buildReliability(view(good, [run<StabilityRunOutput>(5, 'FAILED', null, null), good]), minutes(6), INTERVAL, thresholds);
    expect(failedAfter).toMatchObject({ isHealthy: false, oracle: { status: 'FAILED', uptimeSeconds: 0 }, stability: { currentScore: 92 } });
    expect(buildReliability(view(good), minutes(11), INTERVAL, thresholds).isHealthy).toBe(false);
  });

  it('includes intelligence only when the run has it', () => {
    const intelligence = { reasoning: 'r', confidence: 0.8, alerts: [], outlook: 'STABLE' as const, model: 'm', generatedAt: T0.toISOString() };
    const withIt = run(0, 'SUCCESS', stabilityOutput(92, { intelligence }), 92);
    expect(buildReliability({ latest: withIt, recent: [withIt] }, minutes(1), INTERVAL, thresholds).intelligence).toEqual(intelligence);
    expect('intelligence' in buildReliability({ latest: good, recent: [good] }, minutes(1), INTERVAL, thresholds)).toBe(false);
  });

  it('GET /health: healthy, SUCCESS, uptime as hours, minutes and seconds; degraded with a feed down', () => {
    expect(buildStabilityHealth({ latest: good, recent: [good, older] }, minutes(6), INTERVAL, network)).toEqual({
      status: 'healthy',
      oracle: 'SUCCESS',
      uptimeSeconds: 659,
      uptimeHuman: '0h 10m 59s',
      network: 'base',
      chainId: 8453,
      timestamp: minutes(6).toISOString(),
      feeds: [{ feed: 'FRED T10Y2Y', mode: 'snapshot', status: 'ok' }],
    });
    const down = run(0, 'SUCCESS', stabilityOutput(92, { feeds: [{ feed: 'DefiLlama', mode: 'live', status: 'fallback', reason: 'HTTP 500' }] }), 92);
    expect(buildStabilityHealth({ latest: down, recent: [down] }, minutes(1), INTERVAL, network)).toMatchObject({
      status: 'degraded',
      feeds: [{ feed: 'DefiLlama', status: 'fallback', reason: 'HTTP 500' }],
    });
  });

  it('GET /api/status and /api/history: the latest run in full, the last 24 successful runs newest first', () => {
    expect(buildOracleStatus({ latest: good, recent: [good] })).toEqual({ timestamp: T0.getTime() / 1000, status: 'SUCCESS', data: good.output, lastUpdate: '2026-11-22T12:00:04.000Z' });
    const runs = Array.from({ length: 30 }, (_, index) => ({ ...run(-5 * index, index === 3 ? 'FAILED' : 'SUCCESS', null, index === 3 ? null : 80 + index), overall: 'caution' }));
    const history = buildOracleHistory({ latest: good, recent: runs });
    expect(history).toHaveLength(24);
    expect(history[0]).toEqual({ timestamp: T0.getTime() / 1000, stabilityScore: 80, overall: 'caution' });
    expect(history.map((entry) => entry.stabilityScore)).not.toContain(83);
  });
});
