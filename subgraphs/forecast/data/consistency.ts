// Checks across the data files that a schema cannot express; each problem is one readable line.

import { COMMODITY_SYMBOLS, SCENARIO_IDS } from '../domain/index.js';
import type { CommoditiesFile, ParametersFile, ParsedForecastFiles, RegionsFile, ScenariosFile } from './schemas.js';

const SHARE_TOLERANCE = 0.0005;
const SHARE_SUM_TOLERANCE = 0.002;
const WEIGHT_SUM_TOLERANCE = 1e-9;

export function findInconsistencies(files: ParsedForecastFiles): string[] {
  const regionIds = new Set(files.regions.regions.map((r) => r.id));
  return [
    ...checkCommodities(files.commodities, regionIds),
    ...checkRegions(files.regions, files.commodities),
    ...checkParameters(files.parameters),
    ...checkScenarios(files.scenarios, regionIds),
    ...checkCalendar(files.calendar.months.map((m) => m.month)),
  ];
}

function checkCommodities(file: CommoditiesFile, regionIds: ReadonlySet<string>): string[] {
  const symbols = file.commodities.map((c) => c.symbol);
  const problems = exactlyOnce('commodities.json', symbols, COMMODITY_SYMBOLS);
  for (const c of file.commodities) {
    const listed = c.production.regions;
    const total = listed.reduce((acc, r) => acc + r.production, 0);
    const shareSum = listed.reduce((acc, r) => acc + r.share, 0);
    if (Math.abs(shareSum - 1) > SHARE_SUM_TOLERANCE) problems.push(`${c.symbol}: production shares sum to ${shareSum}, not 1`);
    for (const r of listed) {
      if (!regionIds.has(r.regionId)) problems.push(`${c.symbol}: unknown production region ${r.regionId}`);
      if (Math.abs(r.share - r.production / total) > SHARE_TOLERANCE) {
        problems.push(`${c.symbol}/${r.regionId}: share ${r.share} does not equal production / listed total (${r.production / total})`);
      }
    }
  }
  return problems;
}

function checkRegions(file: RegionsFile, commodities: CommoditiesFile): string[] {
  const problems = duplicates(file.regions.map((r) => r.id)).map((id) => `regions.json: region ${id} is listed twice`);
  for (const region of file.regions) {
    const [minLon, minLat, maxLon, maxLat] = region.boundingBox;
    if (minLon >= maxLon || minLat >= maxLat) problems.push(`${region.id}: bounding box must be [minLon, minLat, maxLon, maxLat]`);
    const expected = commodities.commodities.filter((c) => c.production.regions.some((r) => r.regionId === region.id)).map((c) => c.symbol);
    if ([...region.commodities].sort().join() !== [...expected].sort().join()) {
      problems.push(`${region.id}: commodities [${region.commodities.join(', ')}] differ from the commodities that list it [${expected.join(', ')}]`);
    }
    const times = region.observations.map((o) => Date.parse(o.observedAt));
    if (new Set(times).size !== times.length) problems.push(`${region.id}: two observations share one observedAt`);
  }
  return problems;
}

function checkParameters(p: ParametersFile): string[] {
  const problems: string[] = [];
  const w = p.regionScore.weights;
  const weightSum = w.temperature + w.drought + w.wildfire + w.alerts;
  if (Math.abs(weightSum - 1) > WEIGHT_SUM_TOLERANCE) problems.push(`regionScore.weights sum to ${weightSum}, not 1`);
  for (const [name, r] of Object.entries(p.regionScore.normalisation)) {
    if (r.max <= r.min) problems.push(`regionScore.normalisation.${name}: max must exceed min`);
  }
  if (duplicates(p.regionScore.threatTieBreakOrder).length > 0) problems.push('regionScore.threatTieBreakOrder repeats a threat');
  if (p.status.yellowFrom >= p.status.redFrom) problems.push('status.yellowFrom must be below status.redFrom');
  if (p.status.yellowSevereShare >= p.status.redSevereShare) problems.push('status.yellowSevereShare must be below status.redSevereShare');
  if (p.severity.moderateFrom >= p.severity.highFrom) problems.push('severity.moderateFrom must be below severity.highFrom');
  if (p.confidence.levels.mediumFrom >= p.confidence.levels.highFrom) problems.push('confidence.levels.mediumFrom must be below highFrom');
  if (p.trend.comparisonMinGapDays >= p.trend.comparisonMaxGapDays) problems.push('trend.comparisonMinGapDays must be below comparisonMaxGapDays');
  if (p.drawdown.minRiskScale > p.drawdown.maxRiskScale) problems.push('drawdown.minRiskScale must not exceed maxRiskScale');
  return problems;
}

function checkScenarios(file: ScenariosFile, regionIds: ReadonlySet<string>): string[] {
  const problems = exactlyOnce(
    'scenarios.json',
    file.scenarios.map((s) => s.id),
    SCENARIO_IDS,
  );
  for (const s of file.scenarios) {
    for (const region of s.regions) if (!regionIds.has(region)) problems.push(`${s.id}: unknown region ${region}`);
    for (const d of duplicates(s.affectedCommodities.map((i) => i.symbol))) problems.push(`${s.id}: ${d} is listed twice`);
    for (const i of s.affectedCommodities) {
      if (i.priceImpactPct.low > i.priceImpactPct.high) problems.push(`${s.id}/${i.symbol}: priceImpactPct.low exceeds high`);
    }
  }
  return problems;
}

function checkCalendar(months: readonly number[]): string[] {
  const expected = Array.from({ length: 12 }, (_, i) => i + 1);
  return exactlyOnce('calendar.json', months, expected);
}

function exactlyOnce<T>(file: string, found: readonly T[], expected: readonly T[]): string[] {
  const missing = expected.filter((e) => !found.includes(e)).map((e) => `${file}: ${String(e)} is missing`);
  const unknown = found.filter((f) => !expected.includes(f)).map((f) => `${file}: ${String(f)} is not expected`);
  const repeated = duplicates(found).map((d) => `${file}: ${String(d)} is listed twice`);
  return [...missing, ...unknown, ...repeated];
}

function duplicates<T>(values: readonly T[]): T[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}
