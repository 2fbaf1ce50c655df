import { climbLadder, mean, round, type SeriesSet, type SeriesSource, type SignalAnswer } from '../../domain/index.js';
import { type CountryEntry, type CountryProfile, type OpportunityStatus, type ProfileParameters, type RiskStatus, scoreCountry, type ScoredCountry } from './country-profile.js';
import { type EconomicStressFeedback, readUsStress, type UsStressParameters } from './us-stress.js';

export interface GenderRiskParameters extends ProfileParameters {
  regions: string[];
  countries: CountryEntry[];
  usStress: UsStressParameters;
  topOpportunityCount: number;
}

/** A published categorical table (income groups): its provenance as an answer names it. */
export interface IncomeGroupTable {
  source: { publisher: string; url: string; licence: string; asOf: string };
  incomeGroups: Record<string, string>;
}

export interface GenderRisk {
  globalSummary: {
    avgGBVRiskScore: number | null;
    avgOpportunityScore: number | null;
    countriesAtCritical: number;
    countriesWithStrongOpportunity: number;
    gdpDragEstimateGlobal: string;
    economicStressFeedbackRisk: string;
    regime: string;
  };
  countryProfiles: CountryProfile[];
  financialCorrelations: {
    labourSuppression: { score: number | null; mechanism: string; gdpImpactPct: number | null };
    gdpDrag: { globalEstimatePct: number | null; rangeMin: number; rangeMax: number; methodology: string };
    economicStressFeedback: EconomicStressFeedback;
  };
  opportunitySignals: {
    topOpportunityCountries: Array<{ iso3: string; name: string; opportunityScore: number; drivers: string[] }>;
    marketThesis: string;
  };
  synthesis: string;
}

const meanOf = (values: Array<number | null | undefined>, digits = 1): number | null => {
  const present = values.filter((value): value is number => value !== null && value !== undefined);
  return present.length === 0 ? null : round(mean(present), digits);
};

function incomeGroupSource(table: IncomeGroupTable): SeriesSource {
  return {
    id: 'income-groups',
    title: 'World Bank country income classification',
    units: 'category',
    frequency: 'annual',
    publisher: table.source.publisher,
    url: table.source.url,
    licence: table.source.licence,
    asOf: table.source.asOf,
    live: false,
  };
}

function labourSuppression(scored: ScoredCountry[], parameters: GenderRiskParameters): GenderRisk['financialCorrelations']['labourSuppression'] {
  const { rangeMin, rangeMax, weights } = parameters.gdpDrag;
  const labourShare = weights.labourGap / (weights.labourGap + weights.violence);
  const score = meanOf(scored.map((one) => one.risk.labourGap));
  const gdpImpactPct = meanOf(
    scored.map((one) => (one.risk.labourGap === undefined ? undefined : (rangeMax - rangeMin) * labourShare * (one.risk.labourGap / 100))),
    2,
  );
  const female = meanOf(scored.map((one) => one.profile.femaleLFPR));
  const male = meanOf(scored.map((one) => one.profile.maleLFPR));
  const widest = [...scored].filter((one) => one.profile.lfprGenderGap !== null).sort((a, b) => b.profile.lfprGenderGap! - a.profile.lfprGenderGap!)[0];
  const mechanism =
    female === null || male === null
      ? 'labour-force participation unavailable'
      : `female participation averages ${female}% against ${male}% for men across the ${scored.length} countries` +
        (widest ? `, widest in ${widest.profile.name} (${widest.profile.lfprGenderGap} points)` : '') +
        `: the missing workers shrink output, and ${gdpImpactPct ?? 'n/a'}% of GDP of the modelled drag above its floor is theirs`;
  return { score, mechanism, gdpImpactPct };
}

function topOpportunities(scored: ScoredCountry[], count: number): GenderRisk['opportunitySignals']['topOpportunityCountries'] {
  return scored
    .map((one) => one.profile)
    .filter((profile) => profile.opportunityScore !== null)
    .sort((a, b) => b.opportunityScore! - a.opportunityScore! || (a.iso3 < b.iso3 ? -1 : 1))
    .slice(0, count)
    .map((profile) => ({ iso3: profile.iso3, name: profile.name, opportunityScore: profile.opportunityScore!, drivers: profile.opportunityDrivers }));
}

function countAt<Status extends string>(profiles: CountryProfile[], pick: (profile: CountryProfile) => Status | null, status: Status): number {
  return profiles.filter((profile) => pick(profile) === status).length;
}

function regimeOf(avgRisk: number | null, feedback: EconomicStressFeedback, parameters: GenderRiskParameters): RiskStatus | 'UNKNOWN' {
  if (avgRisk === null) return 'UNKNOWN';
  return climbLadder(parameters.riskStatus, avgRisk + parameters.usStress.regimeUplift[feedback.feedbackRisk]);
}

/**
 * Gender risk and opportunity (spec §4 GET /gender-risk) over the 18 countries of the parameters:
 * per country a GBV risk and an opportunity score (weighted components, weights renormalised over
 * the inputs present), their status ladders, a GDP drag within the spec's range; the US stress feeds
 * and what follows for markets.
 */
export function computeGenderRisk(series: SeriesSet, incomeGroups: IncomeGroupTable, parameters: GenderRiskParameters): SignalAnswer<GenderRisk> {
  const scored = parameters.countries.map((country) => scoreCountry(series, country, incomeGroups.incomeGroups[country.iso3], parameters));
  const profiles = scored.map((one) => one.profile);
  const stress = readUsStress(series, parameters.usStress);
  const avgGBVRiskScore = meanOf(profiles.map((profile) => profile.gbvRiskScore));
  const avgOpportunityScore = meanOf(profiles.map((profile) => profile.opportunityScore));
  const globalDrag = meanOf(
    profiles.map((profile) => profile.estimatedGDPDragPct),
    2,
  );
  const { rangeMin, rangeMax, methodology } = parameters.gdpDrag;
  const regime = regimeOf(avgGBVRiskScore, stress.feedback, parameters);
  const top = topOpportunities(scored, parameters.topOpportunityCount);
  const critical = countAt<RiskStatus>(profiles, (profile) => profile.riskStatus, 'CRITICAL');
  const strong = countAt<OpportunityStatus>(profiles, (profile) => profile.opportunityStatus, 'STRONG');
  const highest = [...profiles].filter((profile) => profile.gbvRiskScore !== null).sort((a, b) => b.gbvRiskScore! - a.gbvRiskScore!)[0];
  const body: GenderRisk = {
    globalSummary: {
      avgGBVRiskScore,
      avgOpportunityScore,
      countriesAtCritical: critical,
      countriesWithStrongOpportunity: strong,
      gdpDragEstimateGlobal: globalDrag === null ? 'unknown' : `${globalDrag}% of GDP (modelled range ${rangeMin}-${rangeMax}%)`,
      economicStressFeedbackRisk: stress.feedback.feedbackRisk,
      regime,
    },
    countryProfiles: profiles,
    financialCorrelations: {
      labourSuppression: labourSuppression(scored, parameters),
      gdpDrag: { globalEstimatePct: globalDrag, rangeMin, rangeMax, methodology },
      economicStressFeedback: stress.feedback,
    },
    opportunitySignals: {
      topOpportunityCountries: top,
      marketThesis:
        top.length === 0
          ? 'no opportunity score could be computed'
          : `${top.map((one) => `${one.name} (${one.opportunityScore})`).join(', ')} lead on opportunity; ${strong} of ${profiles.length} countries reach STRONG: closing participation gaps where laws already allow it adds workers, consumers and borrowers`,
    },
    synthesis:
      `${regime}: average GBV risk ${avgGBVRiskScore ?? 'n/a'} and opportunity ${avgOpportunityScore ?? 'n/a'} over ${profiles.length} countries in ${parameters.regions.length} regions; ` +
      `${critical} at CRITICAL` +
      (highest ? `, highest ${highest.name} (${highest.gbvRiskScore}, ${highest.riskStatus})` : '') +
      `; modelled GDP drag ${globalDrag ?? 'n/a'}% of GDP; US stress feedback ${stress.feedback.feedbackRisk}.`,
  };
  return {
    body,
    inputs: [...scored.flatMap((one) => one.used), ...stress.used, incomeGroupSource(incomeGroups)],
    missing: [...scored.flatMap((one) => one.missing), ...stress.missing],
  };
}
