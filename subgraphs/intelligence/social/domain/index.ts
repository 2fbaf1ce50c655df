export { type CountryProfile, gdpDragPct, type OpportunityStatus, type RiskStatus, scoreCountry } from './country-profile.js';
export { computeGenderRisk, type GenderRisk, type GenderRiskParameters, type IncomeGroupTable } from './gender-risk.js';
export { scaleScore, weightedScore } from './scales.js';
export { readUsStress, sahmGap } from './us-stress.js';
