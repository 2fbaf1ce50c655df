import { climbLadder, type LadderRule, onOrBefore, round, type Series, type SeriesSet } from '../../domain/index.js';
import { type Scale, scaleScore, weightedScore } from './scales.js';

export type RiskStatus = 'CRITICAL' | 'HIGH' | 'ELEVATED' | 'BUILDING' | 'LOW';
export type OpportunityStatus = 'STRONG' | 'EMERGING' | 'MODERATE' | 'LIMITED' | 'CONSTRAINED';
export type InputName = 'ipvPrevalence' | 'womenLawIndex' | 'femaleLFPR' | 'maleLFPR' | 'womenInParliament' | 'gdpPerCapita' | 'gini';
export type RiskComponent = 'violence' | 'legalGap' | 'labourGap' | 'representationGap' | 'inequality' | 'incomeBuffer';
export type OpportunityComponent = 'participationHeadroom' | 'legalEnablement' | 'legalMomentum' | 'participationMomentum' | 'representation' | 'safety';

export interface CountryEntry {
  iso3: string;
  name: string;
  region: string;
}

export interface ProfileParameters {
  series: Record<InputName, { id: string; label: string }>;
  scales: Record<'violence' | 'labourGap' | 'representationGap' | 'inequality' | 'incomeBuffer' | 'legalMomentum' | 'participationMomentum' | 'representation', Scale>;
  momentumYears: number;
  risk: { weights: Record<RiskComponent, number>; transmissionThreshold: number; maxTransmissions: number; transmissions: Record<RiskComponent, string> };
  opportunity: { weights: Record<OpportunityComponent, number>; driverThreshold: number; maxDrivers: number; drivers: Record<OpportunityComponent, string> };
  riskStatus: LadderRule<RiskStatus>[];
  opportunityStatus: LadderRule<OpportunityStatus>[];
  gdpDrag: { rangeMin: number; rangeMax: number; weights: { violence: number; labourGap: number }; methodology: string };
}

export interface CountryProfile {
  iso3: string;
  name: string;
  region: string;
  incomeGroup: string | null;
  ipvPrevalence: number | null;
  womenLawIndex: number | null;
  femaleLFPR: number | null;
  maleLFPR: number | null;
  lfprGenderGap: number | null;
  gbvRiskScore: number | null;
  opportunityScore: number | null;
  riskStatus: RiskStatus | null;
  opportunityStatus: OpportunityStatus | null;
  estimatedGDPDragPct: number | null;
  primaryTransmissions: string[];
  opportunityDrivers: string[];
}

/** A profile with the component scores behind it (kept for the financial correlations, not shown). */
export interface ScoredCountry {
  profile: CountryProfile;
  risk: Partial<Record<RiskComponent, number>>;
  opportunity: Partial<Record<OpportunityComponent, number>>;
  used: Series[];
  missing: string[];
}

type Readings = Partial<Record<InputName, Series>>;

function readCountry(series: SeriesSet, iso3: string, parameters: ProfileParameters): { readings: Readings; used: Series[]; missing: string[] } {
  const readings: Readings = {};
  const used: Series[] = [];
  const missing: string[] = [];
  for (const [name, input] of Object.entries(parameters.series) as Array<[InputName, { id: string; label: string }]>) {
    const one = series.get(`${input.id}:${iso3}`);
    if (one && one.observations.length > 0) {
      readings[name] = one;
      used.push(one);
    } else missing.push(`${iso3}: ${input.label}`);
  }
  return { readings, used, missing };
}

const latestValue = (one: Series | undefined) => one?.observations.at(-1)?.value;

/** The change of the latest value over `years` years (against the newest observation at least that old); undefined without one. */
function changeOver(one: Series | undefined, years: number): number | undefined {
  const last = one?.observations.at(-1);
  if (!one || !last) return undefined;
  const earlier = onOrBefore(one, `${Number(last.date.slice(0, 4)) - years}-12-31`);
  return earlier === undefined ? undefined : last.value - earlier.value;
}

function definedOnly<Name extends string>(scores: Record<Name, number | undefined>): Partial<Record<Name, number>> {
  return Object.fromEntries(Object.entries(scores).filter(([, score]) => score !== undefined)) as Partial<Record<Name, number>>;
}

function riskComponents(readings: Readings, parameters: ProfileParameters): Partial<Record<RiskComponent, number>> {
  const { scales } = parameters;
  const ipv = latestValue(readings.ipvPrevalence);
  const law = latestValue(readings.womenLawIndex);
  const gap = lfprGap(readings);
  const parliament = latestValue(readings.womenInParliament);
  const gini = latestValue(readings.gini);
  const gdp = latestValue(readings.gdpPerCapita);
  return definedOnly<RiskComponent>({
    violence: ipv === undefined ? undefined : scaleScore(ipv, scales.violence),
    legalGap: law === undefined ? undefined : 100 - law,
    labourGap: gap === undefined ? undefined : scaleScore(gap, scales.labourGap),
    representationGap: parliament === undefined ? undefined : scaleScore(parliament, scales.representationGap),
    inequality: gini === undefined ? undefined : scaleScore(gini, scales.inequality),
    incomeBuffer: gdp === undefined ? undefined : scaleScore(gdp, scales.incomeBuffer),
  });
}

function opportunityComponents(readings: Readings, risk: Partial<Record<RiskComponent, number>>, parameters: ProfileParameters): Partial<Record<OpportunityComponent, number>> {
  const { scales, momentumYears } = parameters;
  const law = latestValue(readings.womenLawIndex);
  const legalChange = changeOver(readings.womenLawIndex, momentumYears);
  const participationChange = changeOver(readings.femaleLFPR, momentumYears);
  const parliament = latestValue(readings.womenInParliament);
  return definedOnly<OpportunityComponent>({
    participationHeadroom: risk.labourGap,
    legalEnablement: law,
    legalMomentum: legalChange === undefined ? undefined : scaleScore(legalChange, scales.legalMomentum),
    participationMomentum: participationChange === undefined ? undefined : scaleScore(participationChange, scales.participationMomentum),
    representation: parliament === undefined ? undefined : scaleScore(parliament, scales.representation),
    safety: risk.violence === undefined ? undefined : 100 - risk.violence,
  });
}

function lfprGap(readings: Readings): number | undefined {
  const female = latestValue(readings.femaleLFPR);
  const male = latestValue(readings.maleLFPR);
  return female === undefined || male === undefined ? undefined : male - female;
}

/**
 * The GDP drag, in % of GDP: the floor of the range plus its width times the country's exposure (the
 * weighted violence and labour-gap scores, 0-1). Within [rangeMin, rangeMax] by construction.
 */
export function gdpDragPct(risk: Partial<Record<RiskComponent, number>>, drag: ProfileParameters['gdpDrag']): number | undefined {
  const exposure = weightedScore<'violence' | 'labourGap'>({ violence: risk.violence, labourGap: risk.labourGap }, drag.weights);
  if (exposure === undefined) return undefined;
  return drag.rangeMin + (drag.rangeMax - drag.rangeMin) * Math.min(Math.max(exposure / 100, 0), 1);
}

/** The components at or above the threshold, largest contribution (score x weight) first: what the phrase templates name. */
function strongest<Name extends string>(scores: Partial<Record<Name, number>>, weights: Record<Name, number>, threshold: number, limit: number): Name[] {
  return (Object.entries(scores) as Array<[Name, number]>)
    .filter(([, score]) => score >= threshold)
    .sort(([a, scoreA], [b, scoreB]) => scoreB * weights[b] - scoreA * weights[a] || (a < b ? -1 : 1))
    .slice(0, limit)
    .map(([name]) => name);
}

const rounded = (value: number | undefined, digits = 1) => (value === undefined ? null : round(value, digits));

export function scoreCountry(series: SeriesSet, country: CountryEntry, incomeGroup: string | undefined, parameters: ProfileParameters): ScoredCountry {
  const { readings, used, missing } = readCountry(series, country.iso3, parameters);
  const risk = riskComponents(readings, parameters);
  const opportunity = opportunityComponents(readings, risk, parameters);
  const gbvRiskScore = rounded(weightedScore(risk, parameters.risk.weights));
  const opportunityScore = rounded(weightedScore(opportunity, parameters.opportunity.weights));
  const transmissions = strongest(risk, parameters.risk.weights, parameters.risk.transmissionThreshold, parameters.risk.maxTransmissions);
  const drivers = strongest(opportunity, parameters.opportunity.weights, parameters.opportunity.driverThreshold, parameters.opportunity.maxDrivers);
  const profile: CountryProfile = {
    ...country,
    incomeGroup: incomeGroup ?? null,
    ipvPrevalence: rounded(latestValue(readings.ipvPrevalence)),
    womenLawIndex: rounded(latestValue(readings.womenLawIndex)),
    femaleLFPR: rounded(latestValue(readings.femaleLFPR)),
    maleLFPR: rounded(latestValue(readings.maleLFPR)),
    lfprGenderGap: rounded(lfprGap(readings)),
    gbvRiskScore,
    opportunityScore,
    riskStatus: gbvRiskScore === null ? null : climbLadder(parameters.riskStatus, gbvRiskScore),
    opportunityStatus: opportunityScore === null ? null : climbLadder(parameters.opportunityStatus, opportunityScore),
    estimatedGDPDragPct: rounded(gdpDragPct(risk, parameters.gdpDrag), 2),
    primaryTransmissions: transmissions.map((name) => `${parameters.risk.transmissions[name]} (score ${Math.round(risk[name]!)})`),
    opportunityDrivers: drivers.map((name) => `${parameters.opportunity.drivers[name]} (score ${Math.round(opportunity[name]!)})`),
  };
  return { profile, risk, opportunity, used, missing };
}
