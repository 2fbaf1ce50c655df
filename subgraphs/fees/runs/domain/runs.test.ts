import { describe, expect, it } from 'vitest';
import { averageScore24h, humanDuration, type OracleRunRecord, type OracleRunStatus, slotOf, uptimeOf } from './runs.js';

const INTERVAL = 300;
const T0 = new Date('2026-11-22T12:00:00.000Z');
const minutes = (count: number) => new Date(T0.getTime() + count * 60_000);

function run(slotMinutes: number, status: OracleRunStatus, score: number | null = status === 'SUCCESS' ? 90 : null): OracleRunRecord {
  const slot = minutes(slotMinutes);
  return {
    oracle: 'stability',
    slot,
    status,
    runner: 'host:1',
    startedAt: new Date(slot.getTime() + 2000),
    finishedAt: status === 'RUNNING' ? null : new Date(slot.getTime() + 3000),
    score,
    overall: null,
    output: null,
    error: null,
  };
}

describe('slotOf', () => {
  it('floors the time to the interval', () => {
    expect(slotOf(new Date('2026-11-22T12:04:59.999Z'), INTERVAL).toISOString()).toBe('2026-11-22T12:00:00.000Z');
    expect(slotOf(new Date('2026-11-22T12:05:00.000Z'), INTERVAL).toISOString()).toBe('2026-11-22T12:05:00.000Z');
  });
});

describe('uptimeOf', () => {
  it('is nothing without a run', () => {
    expect(uptimeOf([], T0, INTERVAL)).toEqual({ uptimeSeconds: 0, uptimePct: 0, intervalsDue: 0, intervalsSucceeded: 0 });
  });

  it('counts successful intervals over those due since the first run; the current one only once it ended', () => {
    const runs = [run(0, 'SUCCESS'), run(5, 'FAILED'), run(10, 'SUCCESS'), run(15, 'SUCCESS'), run(20, 'RUNNING')];
    const uptime = uptimeOf(runs, minutes(21), INTERVAL);
    expect(uptime).toMatchObject({ intervalsDue: 4, intervalsSucceeded: 3, uptimePct: 75 });
    // The unbroken series began with the run of 12:10 (started 2 s after its slot): 11 minutes - 2 s.
    expect(uptime.uptimeSeconds).toBe(11 * 60 - 2);
  });

  it('counts an interval nobody ran as missed, and the series breaks there', () => {
    const runs = [run(0, 'SUCCESS'), run(10, 'SUCCESS')];
    const uptime = uptimeOf(runs, minutes(12), INTERVAL);
    expect(uptime).toMatchObject({ intervalsDue: 3, intervalsSucceeded: 2, uptimePct: 66.67 });
    expect(uptime.uptimeSeconds).toBe(2 * 60 - 2);
  });

  it('is 0 seconds up when the latest interval due failed or was missed', () => {
    expect(uptimeOf([run(0, 'SUCCESS'), run(5, 'FAILED')], minutes(7), INTERVAL).uptimeSeconds).toBe(0);
    expect(uptimeOf([run(0, 'SUCCESS')], minutes(11), INTERVAL).uptimeSeconds).toBe(0);
  });

  it('looks back one day only', () => {
    const day = 24 * 60;
    const runs = [run(0, 'FAILED'), run(day, 'SUCCESS')];
    expect(uptimeOf(runs, minutes(day + 1), INTERVAL)).toMatchObject({ intervalsDue: 288, intervalsSucceeded: 1 });
  });
});

describe('averageScore24h', () => {
  it('averages the successful runs of the last day, to one decimal', () => {
    const runs = [run(-24 * 60, 'SUCCESS', 10), run(0, 'SUCCESS', 90), run(5, 'SUCCESS', 80.05), run(10, 'FAILED')];
    expect(averageScore24h(runs, minutes(11))).toBe(85);
    expect(averageScore24h([run(0, 'FAILED')], minutes(11))).toBeNull();
  });
});

describe('humanDuration', () => {
  it('writes hours, minutes and seconds', () => {
    expect(humanDuration(0)).toBe('0h 0m 0s');
    expect(humanDuration(90_061)).toBe('25h 1m 1s');
  });
});
