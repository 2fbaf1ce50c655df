// The rail's treasury summary of a month (decision 0066): settlement volume, corridor performance
// and the settlement agent's automated decisions, in aggregate only. It is read by the paid treasury
// report, which anonymous x402 payers buy, so no figure may show one institution's payments: a
// cell is published only when enough payments from enough contributors make it and no contributor
// dominates it, and a partition whose single withheld cell could be had by subtraction withholds
// one more. Pure: the grouped rows are handed in.

import { Big } from 'big.js';

export type SummaryStatus = 'SETTLED' | 'PENDING' | 'BLOCKED' | 'FAILED';
export type HoldStatus = 'HELD' | 'RELEASED' | 'DISMISSED';

/** When a cell may be published (statistical disclosure control: threshold and dominance rules). */
export interface DisclosureRule {
  /** At least this many payments (or holds) in the cell. */
  minimumCount: number;
  /** From at least this many contributors (institutions; for the settlement agent's own payments, its agents or AP2 issuers). */
  minimumContributors: number;
  /** No contributor above this share of the cell's count, nor of its USD volume. */
  maxDominantShare: number;
}

export const TREASURY_DISCLOSURE_RULE: DisclosureRule = { minimumCount: 10, minimumContributors: 3, maxDominantShare: 0.75 };

/** The payments of one contributor in one corridor and status (one row of the grouped query). */
export interface SettlementGroup {
  currency: string;
  status: SummaryStatus;
  contributor: string;
  /** A payment the settlement agent sent (POST /agent/settle, an AP2 mandate, a released hold). */
  automated: boolean;
  payments: number;
  /** USD value of the settled payments (amount x exchange rate), decimal text. */
  settledVolumeUsd: string;
  /** Seconds from submission to settlement, summed over the settled payments that have both times. */
  settleSeconds: number;
  timedSettlements: number;
}

export interface HoldRow {
  status: HoldStatus;
  agentId: string;
  /** The rules the held settlement violated. */
  rules: readonly string[];
}

export interface TreasurySummary {
  period: string;
  from: string;
  to: string;
  disclosure: { minimumCount: number; minimumContributors: number; maxDominantSharePct: number; withheldCells: number };
  settlement: StatusCounts & { payments: number | null; settledVolumeUsd: string | null; meanSecondsToSettle: number | null };
  corridors: Array<{ corridor: string; payments: number; settled: number | null; settlementRatePct: number | null; settledVolumeUsd: string | null; meanSecondsToSettle: number | null }>;
  /** Corridors with payments this month whose figures are withheld. */
  withheldCorridors: number;
  automatedDecisions: {
    settlements: StatusCounts & { decisions: number | null };
    holds: { holds: number | null; held: number | null; released: number | null; dismissed: number | null };
    violatedRules: Array<{ rule: string; holds: number }>;
  };
}

type StatusCounts = { settled: number | null; blocked: number | null; failed: number | null; pending: number | null };

/** What a cell is made of, by contributor. */
export class Tally {
  readonly byContributor = new Map<string, { count: number; volume: Big }>();
  count = 0;
  volume = new Big(0);
  seconds = 0;
  timed = 0;

  add(contributor: string, count: number, volume: Big = new Big(0), seconds = 0, timed = 0): this {
    const mine = this.byContributor.get(contributor) ?? { count: 0, volume: new Big(0) };
    this.byContributor.set(contributor, { count: mine.count + count, volume: mine.volume.plus(volume) });
    this.count += count;
    this.volume = this.volume.plus(volume);
    this.seconds += seconds;
    this.timed += timed;
    return this;
  }

  /** An empty cell tells nothing about anyone; any other must pass the threshold, contributor and dominance rules. */
  passes(rule: DisclosureRule): boolean {
    if (this.count === 0) return true;
    if (this.count < rule.minimumCount || this.byContributor.size < rule.minimumContributors) return false;
    const shares = [...this.byContributor.values()];
    const dominant = Math.max(...shares.map((share) => share.count)) / this.count;
    const dominantVolume = this.volume.gt(0) ? Math.max(...shares.map((share) => share.volume.div(this.volume).toNumber())) : 0;
    return dominant <= rule.maxDominantShare && dominantVolume <= rule.maxDominantShare;
  }
}

/**
 * Which cells of a partition of `whole` may be published: none when the whole may not; else those
 * `primary` allows (by default, each that passes the rule), less one more (the smallest published
 * non-empty cell) when exactly one non-empty cell is withheld, since the whole minus the others
 * would show it.
 */
export function publishable(whole: Tally, parts: readonly Tally[], rule: DisclosureRule, primary: readonly boolean[] = parts.map((part) => part.passes(rule))): boolean[] {
  if (!whole.passes(rule)) return parts.map(() => false);
  const shown = [...primary];
  const withheld = parts.filter((part, index) => !shown[index] && part.count > 0).length;
  if (withheld === 1) {
    const candidates = parts.map((part, index) => ({ part, index })).filter(({ part, index }) => shown[index] && part.count > 0);
    const smallest = candidates.sort((a, b) => a.part.count - b.part.count)[0];
    if (smallest) shown[smallest.index] = false;
  }
  return shown;
}

const STATUSES: readonly SummaryStatus[] = ['SETTLED', 'BLOCKED', 'FAILED', 'PENDING'];
const round1 = (value: number) => Math.round(value * 10) / 10;

function tallyOf(groups: readonly SettlementGroup[]): Tally {
  return groups.reduce((tally, group) => tally.add(group.contributor, group.payments, new Big(group.settledVolumeUsd), group.settleSeconds, group.timedSettlements), new Tally());
}

const byStatus = (groups: readonly SettlementGroup[]) => STATUSES.map((status) => tallyOf(groups.filter((group) => group.status === status)));

/** Counts the non-empty cells withheld, for the disclosure note. */
class Withheld {
  cells = 0;
  note(shown: readonly boolean[], parts: readonly Tally[]): readonly boolean[] {
    this.cells += parts.filter((part, index) => !shown[index] && part.count > 0).length;
    return shown;
  }
}

const cellOf = (shown: readonly boolean[], parts: readonly Tally[]) => (index: number) => (shown[index] ? parts[index]!.count : null);
const statusCounts = (cell: (index: number) => number | null): StatusCounts => ({ settled: cell(0), blocked: cell(1), failed: cell(2), pending: cell(3) });
const volumeOf = (settled: Tally, shown: boolean) => (shown ? settled.volume.toFixed(2) : null);
const meanSecondsOf = (settled: Tally, shown: boolean) => (shown && settled.timed > 0 ? Math.round(settled.seconds / settled.timed) : null);

/** The month as a whole: its payments, their statuses, the settled volume and time to settle. */
function settlementOf(whole: Tally, statuses: readonly Tally[], rule: DisclosureRule, withheld: Withheld): TreasurySummary['settlement'] {
  const shown = withheld.note(publishable(whole, statuses, rule), statuses);
  withheld.note([whole.passes(rule)], [whole]);
  return {
    payments: whole.passes(rule) ? whole.count : null,
    ...statusCounts(cellOf(shown, statuses)),
    settledVolumeUsd: volumeOf(statuses[0]!, shown[0]!),
    meanSecondsToSettle: meanSecondsOf(statuses[0]!, shown[0]!),
  };
}

/**
 * Each corridor's payments (a partition of the month), and its settled count, rate, volume and time
 * (a partition of the month's settled payments: a withheld corridor's settled payments count as a
 * withheld cell there too). Blocked, failed and pending are shown for the month only.
 */
function corridorsOf(groups: readonly SettlementGroup[], whole: Tally, settledWhole: Tally, rule: DisclosureRule, withheld: Withheld) {
  const currencies = [...new Set(groups.map((group) => group.currency))].sort();
  const tallies = currencies.map((currency) => tallyOf(groups.filter((group) => group.currency === currency)));
  const settled = currencies.map((currency) => tallyOf(groups.filter((group) => group.currency === currency && group.status === 'SETTLED')));
  const shown = withheld.note(publishable(whole, tallies, rule), tallies);
  const settledShown = publishable(
    settledWhole,
    settled,
    rule,
    settled.map((tally, index) => shown[index]! && tally.passes(rule)),
  );
  const corridors = currencies.flatMap((currency, index) => {
    if (!shown[index]) return [];
    const [payments, mine, isShown] = [tallies[index]!.count, settled[index]!, settledShown[index]!];
    withheld.note([isShown], [mine]);
    return [
      {
        corridor: `${currency}/USDC`,
        payments,
        settled: isShown ? mine.count : null,
        settlementRatePct: isShown ? round1((mine.count / payments) * 100) : null,
        settledVolumeUsd: volumeOf(mine, isShown),
        meanSecondsToSettle: meanSecondsOf(mine, isShown),
      },
    ];
  });
  return { corridors, withheldCorridors: tallies.filter((tally, index) => !shown[index] && tally.count > 0).length };
}

/**
 * The settlement agent's payments by status. Each is also a part of the month's cell of its status,
 * so it is shown only when the rest of that cell (the institutions' own payments) may be shown too:
 * otherwise the month's figure minus the agent's would show the rest.
 */
function agentSettlementsOf(groups: readonly SettlementGroup[], rule: DisclosureRule, withheld: Withheld): TreasurySummary['automatedDecisions']['settlements'] {
  const automated = tallyOf(groups.filter((group) => group.automated));
  const others = tallyOf(groups.filter((group) => !group.automated));
  const statuses = byStatus(groups.filter((group) => group.automated));
  const otherStatuses = byStatus(groups.filter((group) => !group.automated));
  const complementPasses = (tally: Tally) => tally.count === 0 || tally.passes(rule);
  const wholeShown = automated.passes(rule) && complementPasses(others);
  withheld.note([wholeShown], [automated]);
  const primary = statuses.map((tally, index) => wholeShown && tally.passes(rule) && complementPasses(otherStatuses[index]!));
  const shown = withheld.note(wholeShown ? publishable(automated, statuses, rule, primary) : statuses.map(() => false), statuses);
  return { decisions: wholeShown ? automated.count : null, ...statusCounts(cellOf(shown, statuses)) };
}

/** Held settlements by status (each hold one count, its agent the contributor), and the rules that held them. */
function holdsOf(holds: readonly HoldRow[], rule: DisclosureRule, withheld: Withheld) {
  const tallyHolds = (rows: readonly HoldRow[]) => rows.reduce((tally, hold) => tally.add(hold.agentId, 1), new Tally());
  const whole = tallyHolds(holds);
  const statuses = (['HELD', 'RELEASED', 'DISMISSED'] as const).map((status) => tallyHolds(holds.filter((hold) => hold.status === status)));
  const shown = withheld.note(publishable(whole, statuses, rule), statuses);
  withheld.note([whole.passes(rule)], [whole]);
  const cell = cellOf(shown, statuses);
  const rules = [...new Set(holds.flatMap((hold) => hold.rules))].sort();
  const ruleTallies = rules.map((name) => tallyHolds(holds.filter((hold) => hold.rules.includes(name))));
  const ruleShown = withheld.note(
    ruleTallies.map((tally) => tally.passes(rule)),
    ruleTallies,
  );
  return {
    holds: { holds: whole.passes(rule) ? whole.count : null, held: cell(0), released: cell(1), dismissed: cell(2) },
    violatedRules: rules.flatMap((name, index) => (ruleShown[index] ? [{ rule: name, holds: ruleTallies[index]!.count }] : [])),
  };
}

/** The month's summary from its grouped rows: every published figure made by many, none by one. */
export function treasurySummary(
  period: { period: string; from: Date; to: Date },
  groups: readonly SettlementGroup[],
  holds: readonly HoldRow[],
  rule: DisclosureRule = TREASURY_DISCLOSURE_RULE,
): TreasurySummary {
  const withheld = new Withheld();
  const whole = tallyOf(groups);
  const statuses = byStatus(groups);
  const settlement = settlementOf(whole, statuses, rule, withheld);
  const { corridors, withheldCorridors } = corridorsOf(groups, whole, statuses[0]!, rule, withheld);
  const settlements = agentSettlementsOf(groups, rule, withheld);
  const held = holdsOf(holds, rule, withheld);
  return {
    period: period.period,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    disclosure: { minimumCount: rule.minimumCount, minimumContributors: rule.minimumContributors, maxDominantSharePct: rule.maxDominantShare * 100, withheldCells: withheld.cells },
    settlement,
    corridors,
    withheldCorridors,
    automatedDecisions: { settlements, ...held },
  };
}

/** The first instant of the month `YYYY-MM` and of the next, in UTC. */
export function monthBounds(period: string): { from: Date; to: Date } {
  const [year, month] = period.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
}
