import { classifyEsgScore, esgBpsFor, type FeeParameters, interpolate, type ScorePoints } from '../../domain/index.js';

/**
 * The rail's ESG scores (methodology rail-esg/1; docs/esg-oracle-methodology.md): E, S and G of each
 * jurisdiction of the rail's USD corridors from published indicators, then the mean over jurisdictions.
 * Pure: inputs and parameters are passed in. An indicator a jurisdiction lacks is left out and named.
 */

export interface IndicatorValue {
  value: number;
  year: number;
}

export interface RailEsgInputs {
  /** Currency code of each corridor to its WDI country code. */
  jurisdictions: Record<string, string>;
  /** Indicator id → WDI country code → latest value. */
  indicators: Record<string, Record<string, IndicatorValue>>;
  fatf: { callForAction: string[]; increasedMonitoring: string[]; statementDate: string };
  sources: string[];
}

export interface EsgOracleParameters {
  methodology: string;
  pillars: Record<'environmental' | 'social' | 'governance', Record<string, { weight: number; indicators: Record<string, ScorePoints> }>>;
  fatfStandingScore: { notListed: number; increasedMonitoring: number; callForAction: number };
  jurisdictionIso2: Record<string, string>;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

/** The raw value of an indicator for a jurisdiction, derived ones included. */
function valueOf(inputs: RailEsgInputs, parameters: EsgOracleParameters, indicator: string, currency: string): IndicatorValue | null {
  const country = inputs.jurisdictions[currency]!;
  if (indicator === 'labourForceParticipationRatioFM') {
    const female = inputs.indicators['sl.tlf.cact.fe.zs']?.[country];
    const male = inputs.indicators['sl.tlf.cact.ma.zs']?.[country];
    return female && male && male.value > 0 ? { value: female.value / male.value, year: Math.min(female.year, male.year) } : null;
  }
  if (indicator === 'fatfStanding') {
    const iso2 = parameters.jurisdictionIso2[currency] ?? '';
    const score = inputs.fatf.callForAction.includes(iso2)
      ? parameters.fatfStandingScore.callForAction
      : inputs.fatf.increasedMonitoring.includes(iso2)
        ? parameters.fatfStandingScore.increasedMonitoring
        : parameters.fatfStandingScore.notListed;
    return { value: score, year: Number(inputs.fatf.statementDate.slice(0, 4)) };
  }
  return inputs.indicators[indicator]?.[country] ?? null;
}

interface ComponentResult {
  component: string;
  weight: number;
  score: number | null;
  indicators: Array<{ indicator: string; value: number; year: number; score: number }>;
}

function pillarFor(inputs: RailEsgInputs, parameters: EsgOracleParameters, pillar: keyof EsgOracleParameters['pillars'], currency: string, missing: string[]) {
  const components: ComponentResult[] = Object.entries(parameters.pillars[pillar]).map(([component, definition]) => {
    const indicators = Object.entries(definition.indicators).flatMap(([indicator, points]) => {
      const found = valueOf(inputs, parameters, indicator, currency);
      if (!found) {
        missing.push(`${indicator} (${currency})`);
        return [];
      }
      return [{ indicator, value: found.value, year: found.year, score: round1(interpolate(found.value, points)) }];
    });
    const score = mean(indicators.map((entry) => entry.score));
    return { component, weight: definition.weight, score: score === null ? null : round1(score), indicators };
  });
  const present = components.filter((component) => component.score !== null);
  const weight = present.reduce((sum, component) => sum + component.weight, 0);
  const score = weight === 0 ? null : present.reduce((sum, component) => sum + component.score! * component.weight, 0) / weight;
  return { score: score === null ? null : round1(score), components };
}

export function assessRailEsg(inputs: RailEsgInputs, parameters: EsgOracleParameters, feeParameters: FeeParameters, now: Date) {
  const missing: string[] = [];
  const pillars = ['environmental', 'social', 'governance'] as const;
  const jurisdictions = Object.keys(inputs.jurisdictions).map((currency) => ({
    currency,
    country: inputs.jurisdictions[currency]!,
    ...Object.fromEntries(pillars.map((pillar) => [pillar, pillarFor(inputs, parameters, pillar, currency, missing)])),
  })) as Array<{ currency: string; country: string } & Record<(typeof pillars)[number], ReturnType<typeof pillarFor>>>;
  const railPillar = (pillar: (typeof pillars)[number]) => round1(mean(jurisdictions.flatMap((entry) => (entry[pillar].score === null ? [] : [entry[pillar].score!]))) ?? 0);
  const scores = { environmental: railPillar('environmental'), social: railPillar('social'), governance: railPillar('governance'), average: 0 };
  scores.average = round1((scores.environmental + scores.social + scores.governance) / 3);
  const bps = esgBpsFor(scores.average);
  const years = jurisdictions.flatMap((entry) => pillars.flatMap((pillar) => entry[pillar].components.flatMap((component) => component.indicators.map((indicator) => indicator.year))));
  return {
    methodology: parameters.methodology,
    scores,
    fee: { pct: bps.div(100).toNumber(), bps: bps.toNumber(), tier: classifyEsgScore(scores.average, feeParameters.esgTiers).tier, formula: feeParameters.esgFormula },
    jurisdictions,
    missingInputs: missing,
    dataQuality: (missing.length === 0 ? 'LIVE' : 'PARTIAL') as 'LIVE' | 'PARTIAL',
    asOf: `${Math.max(...years)}`,
    oldestInputYear: Math.min(...years),
    sources: inputs.sources,
    assessedAt: now.toISOString(),
  };
}

export type RailEsgAssessment = ReturnType<typeof assessRailEsg>;
