import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { clip, echo } from '../../platform/echo.js';
import type { Synthesiser } from '../../platform/synthesis.js';
import {
  buildCalendar,
  buildCommodityOutlook,
  buildHeatCheck,
  buildTcfdReport,
  rankRegions,
  runScenario,
  stressPortfolio,
  type CommodityOutlook,
  type ForecastContext,
  type ForecastDataset,
} from './domain/index.js';
import { COMMODITY_SYMBOLS, type CommoditySymbol, type DataQuality } from './domain/types.js';
import type { PortfolioBody, ScenarioBody, TcfdBody } from './inputs.js';

/** Where the forecast's inputs come from: the shipped snapshot, or live sources over it. */
export interface ForecastDataSource {
  /** Throws AppError FCT_ERR_UPSTREAM_UNAVAILABLE when live data is required and cannot be had. */
  load(now: Date): Promise<{ dataset: ForecastDataset; dataQuality: DataQuality }>;
}

export interface ForecastServiceDeps {
  clock: Clock;
  synthesiser: Synthesiser;
  source: ForecastDataSource;
}

export function parseSupportedSymbol(raw: string): CommoditySymbol {
  const symbol = raw.toUpperCase();
  if (!(COMMODITY_SYMBOLS as readonly string[]).includes(symbol)) {
    throw new AppError('FCT_ERR_UNSUPPORTED_SYMBOL', {
      message: `Symbol ${clip(raw)} is not supported; supported symbols are ${COMMODITY_SYMBOLS.join(', ')}.`,
    });
  }
  return symbol as CommoditySymbol;
}

/** The forecast capabilities, called alike by routes.ts, resolvers.ts and the MCP tools. */
export function createForecastService(deps: ForecastServiceDeps) {
  async function load(): Promise<{ dataset: ForecastDataset; context: ForecastContext }> {
    const now = deps.clock.now();
    const { dataset, dataQuality } = await deps.source.load(now);
    return { dataset, context: { now, dataQuality } };
  }

  /** The rule-based reasoning is the default synthesis; a configured language model may reword it. */
  async function withSynthesis(outlook: CommodityOutlook): Promise<CommodityOutlook & { reasoningModel: string }> {
    const synthesis = await deps.synthesiser.synthesise({
      topic: `commodity climate outlook ${outlook.symbol}`,
      facts: { ...outlook, reasoning: undefined },
      ruleBasedText: outlook.reasoning,
    });
    return synthesis
      ? { ...outlook, reasoning: synthesis.text, reasoningModel: synthesis.model }
      : { ...outlook, reasoningModel: deps.synthesiser.model };
  }

  return {
    async heatCheck() {
      const { dataset, context } = await load();
      return buildHeatCheck(dataset, context);
    },
    async commodityOutlook(symbol: CommoditySymbol) {
      const { dataset, context } = await load();
      return withSynthesis(buildCommodityOutlook(dataset, symbol, context));
    },
    async regions() {
      const { dataset } = await load();
      return rankRegions(dataset);
    },
    async calendar() {
      const { dataset, context } = await load();
      return buildCalendar(dataset, context.now);
    },
    async portfolio(body: PortfolioBody) {
      const { dataset, context } = await load();
      return stressPortfolio(dataset, body, context);
    },
    async scenario(body: ScenarioBody) {
      const { dataset, context } = await load();
      // Object.hasOwn, not `in`: "constructor", "__proto__" and "toString" are keys of every object.
      if (!Object.hasOwn(dataset.scenarios, body.scenario)) {
        throw new AppError('FCT_ERR_UNKNOWN_SCENARIO', {
          message: `Unknown scenario ${echo(body.scenario)}; built-in scenarios are ${Object.keys(dataset.scenarios).join(', ')}.`,
        });
      }
      return runScenario(dataset, { scenario: body.scenario as keyof typeof dataset.scenarios, positions: body.positions ?? [] }, context);
    },
    async tcfdReport(body: TcfdBody) {
      const { dataset, context } = await load();
      return buildTcfdReport(dataset, body, context);
    },
  };
}

export type ForecastService = ReturnType<typeof createForecastService>;
