import { climbLadder, type LadderRule, latest, mean, readInputs, round, type SeriesSet, type SeriesSource, type SignalAnswer } from '../../domain/index.js';

export type SectorName = 'power' | 'steel' | 'cement' | 'aviation' | 'shipping' | 'autos';
export type TransitionStatus = 'SEVERE' | 'HIGH' | 'ELEVATED' | 'MODERATE' | 'LOW' | 'UNSCORED';

export interface FuelFactor {
  co2KgPerTj: number;
  ncvGjPerTonne: number | null;
  densityKgPerM3: number | null;
  ncvBasis: string;
}

export interface TransitionRiskParameters {
  defaultScenarioEurPerTonne: number;
  scenarioBounds: { min: number; max: number };
  barrelCubicMetres: number;
  brentSeries: string;
  eurPerUsdSeries: string;
  carbonPriceInput: string;
  gridIntensitySeries: { us: string; eu: string; world: string };
  sectors: Record<SectorName, { basis: 'grid' | 'fuel' | 'barrel'; fuel: string; missing?: string[] }>;
  sectorStatus: LadderRule<Exclude<TransitionStatus, 'UNSCORED'>>[];
}

export interface FuelTable {
  fuels: Record<string, FuelFactor>;
  source: SeriesSource;
}

export interface SectorExposure {
  basis: string;
  emissionFactorTco2PerTj: number | null;
  carbonCostUsdPerGj: number | null;
  carbonCost: { value: number; unit: string } | null;
  /** Carbon cost as a percent of the fuel's own cost (null when the fuel cost cannot be read). */
  carbonCostSharePct: number | null;
  exposureScore: number | null;
  status: TransitionStatus;
  signal: string;
}

export interface GridCost {
  region: 'us' | 'eu' | 'world';
  intensityGco2PerKwh: number;
  year: string;
  carbonCostEurPerMwh: number;
}

export interface TransitionRisk {
  carbonPrice: { scenarioEurPerTonne: number; scenarioUsdPerTonne: number | null; eurPerUsd: number | null; eurPerUsdAsOf: string | null; marketEurPerTonne: number | null; marketBasis: string };
  transitionRiskScore: number | null;
  regime: TransitionStatus;
  sectors: Record<SectorName, SectorExposure>;
  grid: GridCost[];
  brent: { usdPerBarrel: number; asOf: string } | null;
  narrative: string;
}

interface Prices {
  eurPerUsd: { value: number; date: string } | undefined;
  brent: { value: number; date: string } | undefined;
}

function statusOf(score: number | null, parameters: TransitionRiskParameters): TransitionStatus {
  return score === null ? 'UNSCORED' : climbLadder(parameters.sectorStatus, score);
}

/** CO2 tonnes in a barrel of the product: NCV (GJ/t) x density (t/m3) x m3 per barrel x EF (t/GJ). */
function tonnesPerBarrel(factor: FuelFactor, barrelCubicMetres: number): number | null {
  if (factor.ncvGjPerTonne === null || factor.densityKgPerM3 === null) return null;
  return factor.ncvGjPerTonne * (factor.densityKgPerM3 / 1000) * barrelCubicMetres * (factor.co2KgPerTj / 1_000_000);
}

function fuelSector(name: SectorName, factor: FuelFactor | undefined, usdPerTonne: number | null, prices: Prices, parameters: TransitionRiskParameters): SectorExposure {
  const sector = parameters.sectors[name];
  if (!factor)
    return {
      basis: sector.fuel,
      emissionFactorTco2PerTj: null,
      carbonCostUsdPerGj: null,
      carbonCost: null,
      carbonCostSharePct: null,
      exposureScore: null,
      status: 'UNSCORED',
      signal: `${name}: no emission factor for ${sector.fuel}`,
    };
  const perGj = usdPerTonne === null ? null : round((factor.co2KgPerTj / 1_000_000) * usdPerTonne, 3);
  const perBarrel = sector.basis === 'barrel' ? tonnesPerBarrel(factor, parameters.barrelCubicMetres) : null;
  const costPerBarrel = perBarrel === null || usdPerTonne === null ? null : perBarrel * usdPerTonne;
  const share = costPerBarrel === null || !prices.brent ? null : round((costPerBarrel / prices.brent.value) * 100, 1);
  const score = share === null ? null : round(Math.min(100, share), 1);
  const status = statusOf(score, parameters);
  const carbonCost = costPerBarrel !== null ? { value: round(costPerBarrel, 2), unit: 'USD per barrel' } : perGj !== null ? { value: perGj, unit: 'USD per GJ of fuel' } : null;
  const signal =
    share !== null && costPerBarrel !== null
      ? `${name} (${sector.fuel}): ${round(perBarrel!, 4)} tCO2 a barrel; the scenario adds ${round(costPerBarrel, 2)} USD a barrel, ${share}% of Brent at ${prices.brent!.value} USD: ${status}`
      : `${name} (${sector.fuel}): ${factor.co2KgPerTj / 1000} tCO2 per TJ, ${perGj ?? 'unpriced'} USD per GJ at the scenario; its fuel cost is not openly published here: ${status}`;
  return {
    basis: `${sector.fuel} (${factor.ncvBasis})`,
    emissionFactorTco2PerTj: factor.co2KgPerTj / 1000,
    carbonCostUsdPerGj: perGj,
    carbonCost,
    carbonCostSharePct: share,
    exposureScore: score,
    status,
    signal,
  };
}

function gridCosts(series: SeriesSet, scenario: number, parameters: TransitionRiskParameters): GridCost[] {
  return (Object.entries(parameters.gridIntensitySeries) as Array<[GridCost['region'], string]>).flatMap(([region, id]) => {
    const one = series.get(id);
    if (!one || one.observations.length === 0) return [];
    const last = latest(one);
    return [{ region, intensityGco2PerKwh: last.value, year: last.date.slice(0, 4), carbonCostEurPerMwh: round((last.value / 1000) * scenario, 2) }];
  });
}

function powerSector(grid: GridCost[], parameters: TransitionRiskParameters): SectorExposure {
  const world = grid.find((cost) => cost.region === 'world');
  const signal = world
    ? `power: grids emit ${grid.map((cost) => `${cost.region} ${cost.intensityGco2PerKwh} g/kWh`).join(', ')} (${world.year}); the scenario costs ${world.carbonCostEurPerMwh} EUR a MWh on the world grid; no open wholesale power price to score it against: UNSCORED`
    : 'power: no grid carbon intensity: UNSCORED';
  return {
    basis: parameters.sectors.power.fuel,
    emissionFactorTco2PerTj: null,
    carbonCostUsdPerGj: null,
    carbonCost: world ? { value: world.carbonCostEurPerMwh, unit: 'EUR per MWh (world grid)' } : null,
    carbonCostSharePct: null,
    exposureScore: null,
    status: 'UNSCORED',
    signal,
  };
}

function priceOf(series: SeriesSet, id: string): { value: number; date: string } | undefined {
  const one = series.get(id);
  if (!one || one.observations.length === 0) return undefined;
  const last = latest(one);
  return { value: last.value, date: last.date };
}

function narrativeOf(risk: Omit<TransitionRisk, 'narrative'>): string {
  const scored = (Object.entries(risk.sectors) as Array<[SectorName, SectorExposure]>).filter(([, sector]) => sector.exposureScore !== null).sort((a, b) => b[1].exposureScore! - a[1].exposureScore!);
  const lead = scored[0];
  const head = `At ${risk.carbonPrice.scenarioEurPerTonne} EUR a tonne of CO2, transition risk is ${risk.regime}${risk.transitionRiskScore === null ? '' : ` (${risk.transitionRiskScore})`}`;
  if (!lead) return `${head}: no sector could be scored.`;
  return `${head}: ${lead[0]} carries the most, a carbon bill of ${lead[1].carbonCostSharePct}% of its fuel; ${scored.length} of 6 sectors scored, the rest priced per unit of energy only.`;
}

/** Transition risk at a carbon price scenario (pure). */
export function computeTransitionRisk(series: SeriesSet, fuels: FuelTable, scenarioEurPerTonne: number, parameters: TransitionRiskParameters): SignalAnswer<TransitionRisk> {
  const read = readInputs(series, [parameters.brentSeries, parameters.eurPerUsdSeries, ...Object.values(parameters.gridIntensitySeries)]);
  const prices: Prices = { eurPerUsd: priceOf(series, parameters.eurPerUsdSeries), brent: priceOf(series, parameters.brentSeries) };
  const usdPerTonne = prices.eurPerUsd ? round(scenarioEurPerTonne / prices.eurPerUsd.value, 2) : null;
  const grid = gridCosts(series, scenarioEurPerTonne, parameters);
  const sectors = {} as Record<SectorName, SectorExposure>;
  for (const name of Object.keys(parameters.sectors) as SectorName[]) {
    sectors[name] = name === 'power' ? powerSector(grid, parameters) : fuelSector(name, fuels.fuels[parameters.sectors[name].fuel], usdPerTonne, prices, parameters);
  }
  const scores = Object.values(sectors).flatMap((sector) => (sector.exposureScore === null ? [] : [sector.exposureScore]));
  const transitionRiskScore = scores.length === 0 ? null : round(mean(scores), 1);
  const body = {
    carbonPrice: {
      scenarioEurPerTonne,
      scenarioUsdPerTonne: usdPerTonne,
      eurPerUsd: prices.eurPerUsd?.value ?? null,
      eurPerUsdAsOf: prices.eurPerUsd?.date ?? null,
      marketEurPerTonne: null,
      marketBasis: parameters.carbonPriceInput,
    },
    transitionRiskScore,
    regime: statusOf(transitionRiskScore, parameters),
    sectors,
    grid,
    brent: prices.brent ? { usdPerBarrel: prices.brent.value, asOf: prices.brent.date } : null,
  };
  const missing = [...read.missing, parameters.carbonPriceInput, ...Object.values(parameters.sectors).flatMap((sector) => sector.missing ?? [])];
  return { body: { ...body, narrative: narrativeOf(body) }, inputs: [...read.used, fuels.source], missing };
}
