// Public face of the forecast domain: pure functions over a ForecastDataset. Nothing else is exported.

export type { CommodityDrawdown, DatasetAssessment } from './assess-dataset.js';
export { assessDataset } from './assess-dataset.js';
export type { TcfdReport, TcfdRequest, TcfdScenarioSummary } from './build-tcfd-report.js';
export { buildTcfdReport, DEFAULT_ENTITY_NAME, tcfdReportFrom } from './build-tcfd-report.js';
export type { CalendarEntry } from './calendar.js';
export { buildCalendar, CALENDAR_LENGTH } from './calendar.js';
export type { CommodityOutlook, ProductionRegionExposure } from './commodity-outlook.js';
export { buildCommodityOutlook, commodityOutlookFrom } from './commodity-outlook.js';
export type {
  Benchmark,
  CalendarMonth,
  CommodityProfile,
  ForecastContext,
  ForecastDataset,
  GeoPoint,
  HistoricalAnalog,
  LiveInputs,
  ModelParameters,
  PctRange,
  Position,
  ProductionRegion,
  RegionProfile,
  Scenario,
  ScenarioImpact,
} from './dataset.js';
export { withLiveInputs } from './dataset.js';
export { RULE_BASED_REASONING_MODEL } from './explain-outlook.js';
export type { HeatCheck, HeatCheckEntry } from './heat-check.js';
export { buildHeatCheck, heatCheckFrom } from './heat-check.js';
export { heatCheckInputs, type InputAge, outlookInputs, portfolioInputs } from './input-ages.js';
export type { RegionEntry } from './rank-regions.js';
export { rankRegions, regionRankingFrom } from './rank-regions.js';
export type { AffectedCommodity, ScenarioPositionResult, ScenarioRequest, ScenarioResult } from './run-scenario.js';
export { runScenario, scenarioResultFrom } from './run-scenario.js';
export type { CommoditySignals } from './score-commodity.js';
export type { PortfolioRequest, PortfolioStressResult, PositionStress } from './stress-portfolio.js';
export { portfolioStressFrom, stressPortfolio } from './stress-portfolio.js';
export type { ExposureFacet, PhysicalRisk, TopRisk } from './tcfd-sections.js';
export type { CommoditySymbol, DataQuality, Outlook, PricePoint, PrimaryThreat, Provenance, RegionClimateObservation, RegionOutlook, RiskStatus, ScenarioId, SeverityLevel } from './types.js';
export { COMMODITY_SYMBOLS, OUTLOOKS, PRIMARY_THREATS, RISK_STATUSES, SCENARIO_IDS, SEVERITY_LEVELS } from './types.js';
