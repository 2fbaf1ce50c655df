import { interpolate, type Observation } from '../../domain/index.js';
import { changePct, type Context, latestOf, record, round, trendOf, upTo } from './signal-context.js';

// The 12 USD structural-health signals of the stability pipeline (version 9.0; docs/stability-model.md),
// each recorded in the context as it is read. Pure.

const FX_PAIRS = ['EUR', 'JPY', 'CHF', 'GBP', 'CNY'] as const;

function usdConsensus(context: Context) {
  const { movePct, majority } = context.parameters.usdConsensus;
  const window = context.parameters.windows.dailyChangeObservations;
  const moves = FX_PAIRS.map((pair) => ({ pair, changePct: changePct(upTo(context.signals.series[pair], context.day), window) }));
  const stronger = moves.filter((move) => move.changePct !== null && move.changePct > movePct).length;
  const weaker = moves.filter((move) => move.changePct !== null && move.changePct < -movePct).length;
  const consensus = stronger >= majority ? 'BULLISH' : weaker >= majority ? 'BEARISH' : stronger >= 2 && weaker >= 2 ? 'MIXED' : 'NEUTRAL';
  return { consensus, moves: moves.map((move) => ({ pair: `${move.pair} per USD`, changePct: move.changePct === null ? null : round(move.changePct, 2) })) };
}

function cpiYoY(context: Context): { value: number; asOf: string } | null {
  const observations = upTo(context.signals.series.CPIAUCSL, context.day);
  const latest = observations.at(-1);
  const yearAgo = observations.at(-13);
  if (!latest || !yearAgo) return null;
  return { value: ((latest.value - yearAgo.value) / yearAgo.value) * 100, asOf: latest.date };
}

/** Where the USD signals note what they found: alerts, and disagreements between signals, each in the order found. */
interface SignalNotes {
  alerts: string[];
  divergenceAlerts: string[];
}

/** The broad trade-weighted dollar against the five major pairs' consensus. */
function tradeWeightedUsd(context: Context, notes: SignalNotes) {
  const p = context.parameters.signals.tradeWeightedUsd;
  const broad = upTo(context.signals.series.DTWEXBGS, context.day);
  const broadLatest = latestOf(context, 'DTWEXBGS');
  const broadChange = changePct(broad, context.parameters.windows.dailyChangeObservations);
  if (broadLatest && broadChange !== null) record(context, 'tradeWeightedUsd', 'DTWEXBGS', broadChange, interpolate(broadChange, p.score), broadLatest.date);
  const consensus = usdConsensus(context);
  const broadTrend = trendOf(broadChange, p.trendPct, 'STRENGTHENING', 'WEAKENING', 'STABLE');
  if ((broadTrend === 'STRENGTHENING' && consensus.consensus === 'BEARISH') || (broadTrend === 'WEAKENING' && consensus.consensus === 'BULLISH')) {
    notes.divergenceAlerts.push(`The broad trade-weighted dollar is ${broadTrend} while the five major pairs read ${consensus.consensus}`);
  }
  return {
    consensus: consensus.consensus,
    tradeWeightedUsd: {
      value: broadLatest?.value ?? null,
      changePct3m: broadChange === null ? null : round(broadChange, 2),
      trend: broadTrend,
      currencies: 26,
      majorPairs: consensus.moves,
      asOf: broadLatest?.date ?? null,
    },
  };
}

/** The Treasury curve: 10y-2y (its recession signal) and 10y-3m. */
function yieldCurve(context: Context, notes: SignalNotes) {
  const p = context.parameters.signals;
  const curve = latestOf(context, 'T10Y2Y');
  const curveState = curve ? (curve.value < 0 ? 'INVERTED' : curve.value < p.yieldCurve.flatBelow ? 'FLAT' : 'NORMAL') : 'UNKNOWN';
  if (curve) record(context, 'yieldCurve', 'T10Y2Y', curve.value, interpolate(curve.value, p.yieldCurve.score), curve.date);
  if (curveState === 'INVERTED') notes.alerts.push('Yield curve inverted (10y-2y below 0): recession signal');
  const nearTerm = latestOf(context, 'T10Y3M');
  if (nearTerm) record(context, 'nearTermCurve', 'T10Y3M', nearTerm.value, interpolate(nearTerm.value, p.nearTermCurve.score), nearTerm.date);
  if (curve && nearTerm && Math.sign(curve.value) !== Math.sign(nearTerm.value)) notes.divergenceAlerts.push('10y-2y and 10y-3m spreads disagree on inversion');
  return { spread: curve?.value ?? null, state: curveState, recessionSignal: curveState === 'INVERTED', spread10y3m: nearTerm?.value ?? null, asOf: curve?.date ?? null };
}

/** 10-year breakeven inflation against the target; then the real yield, which only scores. */
function inflationAndRealYield(context: Context, notes: SignalNotes) {
  const p = context.parameters.signals;
  const breakeven = latestOf(context, 'T10YIE');
  const elevated = breakeven ? breakeven.value > p.breakevenInflation.elevatedAbove : false;
  if (breakeven) record(context, 'breakevenInflation', 'T10YIE', breakeven.value, interpolate(breakeven.value, p.breakevenInflation.score), breakeven.date);
  if (elevated) notes.alerts.push(`10-year breakeven inflation above ${p.breakevenInflation.elevatedAbove}%`);
  const realYield = latestOf(context, 'DFII10');
  if (realYield) record(context, 'realYield', 'DFII10', realYield.value, interpolate(realYield.value, p.realYield.score), realYield.date);
  return { breakeven, breakevenInflation: { value: breakeven?.value ?? null, target: p.breakevenInflation.target, elevated, asOf: breakeven?.date ?? null } };
}

/** The central bank's balance sheet and its 13-week trend. */
function fedBalanceSheet(context: Context, notes: SignalNotes) {
  const p = context.parameters.signals.fedBalanceSheet;
  const balance = latestOf(context, 'WALCL');
  const balanceChange = changePct(upTo(context.signals.series.WALCL, context.day), context.parameters.windows.weeklyChangeObservations);
  const balanceTrend = trendOf(balanceChange, p.trendPct, 'EXPANDING', 'CONTRACTING', 'STABLE');
  if (balance && balanceChange !== null) record(context, 'fedBalanceSheet', 'WALCL', balanceChange, interpolate(balanceChange, p.score), balance.date);
  if (balanceTrend === 'EXPANDING') notes.alerts.push('Central-bank balance sheet expanding');
  return { trillions: balance ? round(balance.value / 1_000_000, 3) : null, changePct13w: balanceChange === null ? null : round(balanceChange, 2), trend: balanceTrend, asOf: balance?.date ?? null };
}

/** Gold, read as a USD debasement signal above a price, beside the euro's move against the dollar. */
function gold(context: Context, notes: SignalNotes) {
  const p = context.parameters.signals.gold;
  const w = context.parameters.windows;
  const latest = latestOf(context, 'GOLD');
  const goldChange = changePct(upTo(context.signals.series.GOLD, context.day), w.monthlyChangeObservations);
  const debasement = latest ? latest.value > p.debasementAbove : false;
  if (latest) record(context, 'gold', 'GOLD', latest.value, interpolate(latest.value, p.score), latest.date);
  if (debasement) notes.alerts.push(`Gold above ${p.debasementAbove} USD: USD debasement signal`);
  const eurChange = changePct(upTo(context.signals.series.EUR, context.day), w.dailyChangeObservations);
  return {
    priceUsd: latest?.value ?? null,
    changePct6m: goldChange === null ? null : round(goldChange, 2),
    trend: trendOf(goldChange, p.trendPct, 'RISING', 'FALLING', 'STABLE'),
    debasementSignal: debasement,
    interpretation: debasement ? `Above ${p.debasementAbove} USD per ounce: read as USD debasement` : `At or below ${p.debasementAbove} USD per ounce: no debasement signal`,
    eurPerUsdChangePct3m: eurChange === null ? null : round(eurChange, 2),
    asOf: latest?.date ?? null,
  };
}

/** Market-implied inflation (the breakeven) against official CPI year on year, and the confidence in official data it gives. */
function inflationDivergence(context: Context, breakeven: Observation | undefined, notes: SignalNotes) {
  const p = context.parameters.signals.inflationDivergence;
  const officialCpi = cpiYoY(context);
  const independent = breakeven?.value ?? null;
  const gap = officialCpi && independent !== null ? Math.abs(independent - officialCpi.value) : null;
  const divergenceFlag = gap !== null && gap > p.divergenceAbove;
  if (gap !== null && officialCpi) record(context, 'inflationDivergence', 'CPIAUCSL', gap, interpolate(gap, p.score), officialCpi.asOf);
  if (divergenceFlag) notes.divergenceAlerts.push(`Market-implied inflation and official CPI differ by ${round(gap!, 2)} percentage points (more than ${p.divergenceAbove})`);
  return {
    confidenceInOfficialData: gap === null ? 'MODERATE' : gap > p.divergenceAbove ? 'LOW' : gap > p.highBelow ? 'MODERATE' : 'HIGH',
    indepInflationVsOfficial: {
      independent: independent === null ? null : round(independent, 2),
      independentSource: '10-year breakeven inflation (T10YIE, market-implied)',
      official: officialCpi ? round(officialCpi.value, 2) : null,
      officialSource: 'CPI-U year on year (CPIAUCSL)',
      gap: gap === null ? null : round(gap, 2),
      divergenceFlag,
    },
  };
}

/** The St. Louis Fed stress index and the Chicago Fed's financial conditions. */
function financialStress(context: Context, notes: SignalNotes) {
  const p = context.parameters.signals;
  const stress = latestOf(context, 'STLFSI4');
  if (stress) record(context, 'financialStress', 'STLFSI4', stress.value, interpolate(stress.value, p.financialStress.score), stress.date);
  if (stress && stress.value > p.financialStress.alertAbove) notes.alerts.push('Financial stress index above 1 (St. Louis Fed)');
  const conditions = latestOf(context, 'NFCI');
  if (conditions) record(context, 'financialConditions', 'NFCI', conditions.value, interpolate(conditions.value, p.financialConditions.score), conditions.date);
  return { stlfsi: stress?.value ?? null, nfci: conditions?.value ?? null };
}

/** Federal debt to GDP, beside two euro-area peers. */
function debtToGdp(context: Context) {
  const debt = latestOf(context, 'GFDEGDQ188S');
  const peers = (['DEBT_DE', 'DEBT_IT'] as const).map((id) => ({ id, latest: latestOf(context, id) }));
  if (debt) record(context, 'debtToGdp', 'GFDEGDQ188S', debt.value, interpolate(debt.value, context.parameters.signals.debtToGdp.score), debt.date);
  return { us: debt?.value ?? null, germany: peers[0]!.latest?.value ?? null, italy: peers[1]!.latest?.value ?? null, asOf: debt?.date ?? null };
}

/**
 * The 12 USD structural-health signals as of `context.day`, recorded in context.readings in this
 * order (the order of their alerts and of the stale series); the usdHealth object without its outlook.
 */
export function usdSignals(context: Context) {
  const notes: SignalNotes = { alerts: [], divergenceAlerts: [] };
  const usd = tradeWeightedUsd(context, notes);
  const curve = yieldCurve(context, notes);
  const inflation = inflationAndRealYield(context, notes);
  const balanceSheet = fedBalanceSheet(context, notes);
  const goldSignal = gold(context, notes);
  const stablecoins = stablecoinHealth(context);
  if (stablecoins.stressSignal)
    notes.alerts.push(`Stablecoin supply fell more than ${context.parameters.signals.stablecoinHealth.stressDeclinePct}% in ${context.parameters.windows.stablecoinChangeDays} days`);
  const divergence = inflationDivergence(context, inflation.breakeven, notes);
  const stress = financialStress(context, notes);
  const debt = debtToGdp(context);
  return {
    confidenceInOfficialData: divergence.confidenceInOfficialData,
    usdStrengthConsensus: usd.consensus,
    tradeWeightedUsd: usd.tradeWeightedUsd,
    yieldCurve: curve,
    breakevenInflation: inflation.breakevenInflation,
    fedBalanceSheet: balanceSheet,
    gold: goldSignal,
    stablecoinHealth: stablecoins,
    indepInflationVsOfficial: divergence.indepInflationVsOfficial,
    financialStress: stress,
    debtToGdp: debt,
    divergenceAlerts: notes.divergenceAlerts,
    alerts: notes.alerts,
  };
}

function stablecoinHealth(context: Context) {
  const p = context.parameters.signals.stablecoinHealth;
  const days = context.parameters.windows.stablecoinChangeDays;
  const usdt = upTo(context.signals.series.USDT, context.day);
  const usdc = upTo(context.signals.series.USDC, context.day);
  const [usdtLatest, usdcLatest] = [latestOf(context, 'USDT'), latestOf(context, 'USDC')];
  if (!usdtLatest || !usdcLatest) return { usdtMarketCapUsd: null, usdcMarketCapUsd: null, dominanceRatio: null, combinedChangePct30d: null, stressSignal: false, asOf: null };
  const combinedNow = usdtLatest.value + usdcLatest.value;
  const combinedBefore = (usdt.at(-1 - days)?.value ?? usdtLatest.value) + (usdc.at(-1 - days)?.value ?? usdcLatest.value);
  const change = ((combinedNow - combinedBefore) / combinedBefore) * 100;
  record(context, 'stablecoinHealth', 'USDT', change, interpolate(change, p.score), usdtLatest.date);
  return {
    usdtMarketCapUsd: usdtLatest.value,
    usdcMarketCapUsd: usdcLatest.value,
    dominanceRatio: round(usdtLatest.value / combinedNow, 4),
    combinedChangePct30d: round(change, 2),
    stressSignal: change < -p.stressDeclinePct,
    asOf: usdtLatest.date,
  };
}
