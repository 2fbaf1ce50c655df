export type { ClimateInputs, ClimateReportData } from './climate-report.js';
export { buildClimateReport, climateRiskLevel, describeSource, OUTLOOK_MONTHS, TOP_REGIONS } from './climate-report.js';
export type { EsgReportInputs, MacroInputs } from './oracle-reports.js';
export { buildEsgReport, buildMacroReport, esgRiskLevel, macroRegime, macroRiskLevel, ninetyDayOutlook } from './oracle-reports.js';
export type { DataQuality, Report, ReportSynthesis, RiskLevel, SourceReference } from './types.js';
export { RISK_LEVELS } from './types.js';
