import { describe, expect, it } from 'vitest';
import { type HoldRow, monthBounds, publishable, type SettlementGroup, Tally, TREASURY_DISCLOSURE_RULE, treasurySummary } from './index.js';

const rule = TREASURY_DISCLOSURE_RULE;
const OCTOBER = { period: '2026-10', ...monthBounds('2026-10') };

/** A cell of `counts[i]` payments from contributor c<i>. */
const cellOf = (...counts: number[]) => counts.reduce((tally, count, index) => tally.add(`c${index}`, count), new Tally());

function group(contributor: string, currency: string, status: SettlementGroup['status'], payments: number, usdEach = 0, automated = false): SettlementGroup {
  const settled = status === 'SETTLED';
  return {
    currency,
    status,
    contributor,
    automated,
    payments,
    settledVolumeUsd: settled ? String(payments * usdEach) : '0',
    settleSeconds: settled ? payments * 60 : 0,
    timedSettlements: settled ? payments : 0,
  };
}

describe('the disclosure rule of a cell (10 payments, 3 contributors, none above 75%)', () => {
  it.each([
    ['10 payments from 3 contributors', cellOf(4, 3, 3), true],
    ['9 payments from 3 contributors', cellOf(3, 3, 3), false],
    ['20 payments from 2 contributors', cellOf(10, 10), false],
    ['one contributor at exactly 75% (9 of 12)', cellOf(9, 2, 1), true],
    ['one contributor above 75% (10 of 13)', cellOf(10, 2, 1), false],
    ['an empty cell: it shows nobody', new Tally(), true],
  ])('%s: %s', (_name, tally, passes) => {
    expect(tally.passes(rule)).toBe(passes);
  });

  it('dominance counts USD volume too: 4 payments of 12, but 800 of 1000 USD (80%), is withheld; 750 of 1000 is not', () => {
    const zero = new Tally().volume;
    const cell = (big: number) =>
      new Tally()
        .add('big', 4, zero.plus(big))
        .add('b', 4, zero.plus((1000 - big) / 2))
        .add('c', 4, zero.plus((1000 - big) / 2));
    expect(cell(800).passes(rule)).toBe(false);
    expect(cell(750).passes(rule)).toBe(true);
  });
});

describe('publishable: a partition never shows one withheld cell by subtraction', () => {
  it('withholds every part of a whole that may not be shown', () => {
    expect(publishable(cellOf(3, 3, 3), [cellOf(3, 3, 3)], rule)).toEqual([false]);
  });

  it('one part withheld: the smallest shown non-empty part is withheld too', () => {
    // 12 + 10 + 5 = 27 from 3 contributors; the 5 fails, so the 10 goes with it.
    expect(publishable(cellOf(10, 9, 8), [cellOf(4, 4, 4), cellOf(4, 3, 3), cellOf(5)], rule)).toEqual([true, false, false]);
  });

  it('two parts withheld already, or none: nothing more is withheld; empty parts are shown', () => {
    expect(publishable(cellOf(10, 10, 10), [cellOf(10, 10, 10), cellOf(2), cellOf(1), new Tally()], rule)).toEqual([true, false, false, true]);
    expect(publishable(cellOf(10, 10, 10), [cellOf(5, 5, 5), cellOf(5, 5, 5)], rule)).toEqual([true, true]);
  });
});

describe('treasurySummary', () => {
  // EUR: 3 institutions x 4 settled (110 USD each) and 4 + 3 + 3 failed; USD: 3 x 4 settled (50 USD each); GBP: one institution, 5 blocked.
  const groups = [
    ...['i1', 'i2', 'i3'].map((institution) => group(institution, 'EUR', 'SETTLED', 4, 110)),
    group('i1', 'EUR', 'FAILED', 4),
    group('i2', 'EUR', 'FAILED', 3),
    group('i3', 'EUR', 'FAILED', 3),
    ...['i1', 'i2', 'i3'].map((institution) => group(institution, 'USD', 'SETTLED', 4, 50)),
    group('i4', 'GBP', 'BLOCKED', 5),
  ];

  it('the month: 39 payments; 24 settled worth 12 x 110 + 12 x 50 = 1920 USD; the 5 blocked and (by subtraction) the 10 failed withheld', () => {
    const summary = treasurySummary(OCTOBER, groups, []);
    expect(summary.settlement).toEqual({ payments: 39, settled: 24, blocked: null, failed: null, pending: 0, settledVolumeUsd: '1920.00', meanSecondsToSettle: 60 });
  });

  it("corridors: GBP withheld and USD (the smaller) with it; EUR's 22 payments shown, but not its settled figures, which the month's minus EUR's would show USD's", () => {
    const summary = treasurySummary(OCTOBER, groups, []);
    expect(summary.corridors).toEqual([{ corridor: 'EUR/USDC', payments: 22, settled: null, settlementRatePct: null, settledVolumeUsd: null, meanSecondsToSettle: null }]);
    expect(summary.withheldCorridors).toBe(2);
    expect(summary.disclosure).toMatchObject({ minimumCount: 10, minimumContributors: 3, maxDominantSharePct: 75 });
    expect(summary.disclosure.withheldCells).toBeGreaterThanOrEqual(4);
  });

  it("the agent's settlements are shown only when the institutions' own payments of each status may be shown too", () => {
    const agents = ['a1', 'a2', 'a3'].map((agent) => group(`agent:${agent}`, 'USD', 'SETTLED', 4, 10, true));
    // Institutions' settled payments: 2 from one institution. The month's 14 settled minus the agent's 12 would show them.
    const thin = treasurySummary(OCTOBER, [...agents, group('i1', 'USD', 'SETTLED', 2, 10)], []);
    expect(thin.automatedDecisions.settlements).toEqual({ decisions: null, settled: null, blocked: null, failed: null, pending: null });
    const thick = treasurySummary(OCTOBER, [...agents, ...['i1', 'i2', 'i3'].map((institution) => group(institution, 'USD', 'SETTLED', 4, 10))], []);
    expect(thick.automatedDecisions.settlements).toEqual({ decisions: 12, settled: 12, blocked: 0, failed: 0, pending: 0 });
  });

  it('holds by status and the rules that held them, each from enough agents', () => {
    const holds: HoldRow[] = [
      ...['a1', 'a2', 'a3', 'a4'].flatMap((agentId) => Array.from({ length: 3 }, (): HoldRow => ({ status: 'HELD', agentId, rules: ['dailyCap'] }))),
      { status: 'DISMISSED', agentId: 'a9', rules: ['allowedCurrencies', 'dailyCap'] },
    ];
    const summary = treasurySummary(OCTOBER, [], holds);
    // 13 holds from 5 agents; HELD 12 shown, DISMISSED 1 withheld, so HELD goes too; dailyCap 13 from 5 agents shown, allowedCurrencies 1 withheld.
    expect(summary.automatedDecisions.holds).toEqual({ holds: 13, held: null, released: 0, dismissed: null });
    expect(summary.automatedDecisions.violatedRules).toEqual([{ rule: 'dailyCap', holds: 13 }]);
  });

  it('corridors each shown whole when every cell passes: 12 settled of 22 = 54.5%, 12 x 110 = 1320 USD', () => {
    const wide = [...groups.filter((row) => row.currency !== 'GBP'), ...['i4', 'i5', 'i6'].map((institution) => group(institution, 'GBP', 'SETTLED', 4, 130))];
    const summary = treasurySummary(OCTOBER, wide, []);
    expect(summary.corridors).toEqual([
      { corridor: 'EUR/USDC', payments: 22, settled: 12, settlementRatePct: 54.5, settledVolumeUsd: '1320.00', meanSecondsToSettle: 60 },
      { corridor: 'GBP/USDC', payments: 12, settled: 12, settlementRatePct: 100, settledVolumeUsd: '1560.00', meanSecondsToSettle: 60 },
      { corridor: 'USD/USDC', payments: 12, settled: 12, settlementRatePct: 100, settledVolumeUsd: '600.00', meanSecondsToSettle: 60 },
    ]);
    expect(summary.withheldCorridors).toBe(0);
  });

  it('an empty month shows zeros: they show nobody', () => {
    expect(treasurySummary(OCTOBER, [], []).settlement).toEqual({ payments: 0, settled: 0, blocked: 0, failed: 0, pending: 0, settledVolumeUsd: '0.00', meanSecondsToSettle: null });
  });
});

describe('monthBounds', () => {
  it('is the month in UTC, December into January', () => {
    expect(monthBounds('2026-12')).toEqual({ from: new Date('2026-12-01T00:00:00.000Z'), to: new Date('2027-01-01T00:00:00.000Z') });
  });
});
