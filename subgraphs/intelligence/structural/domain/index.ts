export type {
  Coupling,
  CycleCatalogue,
  CycleDefinition,
  DangerLevel,
  FaultLineCatalogue,
  FaultLineDefinition,
  FaultStatus,
  ResonanceDomain,
  ResonanceParameters,
  ResonanceRegime,
  TectonicDomain,
  TectonicParameters,
  TectonicRegime,
} from './catalogue.js';
export { parseCycleCatalogue, parseFaultLineCatalogue, RESONANCE_DOMAINS, TECTONIC_DOMAINS } from './catalogue.js';
export type { BuiltIndicator, Grid, GridSeries, IndicatorDefinition, IndicatorMember } from './grid.js';
export { buildIndicator, dateInQuarters } from './grid.js';
export type { Alignment, CyclePhase, Resonance, ResonanceCluster } from './resonance.js';
export { computeResonance, resonanceRegime } from './resonance.js';
export type { FaultLine, FaultNode, Tectonic } from './tectonic.js';
export { computeTectonic, faultStatus, tectonicRegime, yearsToRupture } from './tectonic.js';
