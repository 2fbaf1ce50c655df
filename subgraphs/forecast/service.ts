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
  /**
   * Throws AppError FCT_ERR_UPSTREAM_UNAVAILABLE when live data is required and cannot be had.
   * `evaluatedAt`, when given, is the instant the model is evaluated at instead of now (the
   * snapshot's own date); live data is evaluated now.
   */
  load(now: Date): Promise<{ dataset: ForecastDataset; dataQuality: DataQuality; evaluatedAt?: Date }>;
}

const DAY_MS = 86_400_000;

/** How old the data behind an answer is, beside the instant the model was evaluated at. */
export interface DataAge {
  /** When the figures were evaluated: the snapshot's date in snapshot mode, now when live. */
  evaluatedAt: string;
  /** Whole days between the newest observation behind the answer and now (the real clock). */
  dataAgeDays: number;
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

/**
 * Answers that depend on the dataset version and its evaluation alone, built once per version and
 * kept with it (decision 0104): the dataset object is the version, so a live refresh starts afresh.
 */
const answersByVersion = new WeakMap<ForecastDataset, Map<string, unknown>>();

function oncePerVersion<T>(dataset: ForecastDataset, key: string, build: () => T): T {
  let answers = answersByVersion.get(dataset);
  if (!answers) {
    answers = new Map();
    answersByVersion.set(dataset, answers);
  }
  if (answers.has(key)) return answers.get(key) as T;
  const answer = build();
  answers.set(key, answer);
  return answer;
}

/** The forecast capabilities, called alike by routes.ts, resolvers.ts and the MCP tools. */
export function createForecastService(deps: ForecastServiceDeps) {
  async function load(): Promise<{ dataset: ForecastDataset; context: ForecastContext; age: (asOf: string) => DataAge; version: string }> {
    const now = deps.clock.now();
    const { dataset, dataQuality, evaluatedAt } = await deps.source.load(now);
    const evaluation = evaluatedAt ?? now;
    const age = (asOf: string): DataAge => ({
      evaluatedAt: evaluation.toISOString(),
      dataAgeDays: Math.max(0, Math.floor((now.getTime() - Date.parse(asOf)) / DAY_MS)),
    });
    const version = `${evaluation.getTime()}:${dataQuality}`;
    return { dataset, context: { now: evaluation, dataQuality }, age, version };
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
      const { dataset, context, age, version } = await load();
      const heatCheck = oncePerVersion(dataset, `heat-check ${version}`, () => buildHeatCheck(dataset, context));
      return { ...heatCheck, ...age(heatCheck.asOf) };
    },
    async commodityOutlook(symbol: CommoditySymbol) {
      const { dataset, context, age, version } = await load();
      const ruleBased = oncePerVersion(dataset, `outlook ${symbol} ${version}`, () => buildCommodityOutlook(dataset, symbol, context));
      const outlook = await withSynthesis(ruleBased);
      return { ...outlook, ...age(outlook.asOf) };
    },
    async regions() {
      const { dataset } = await load();
      return oncePerVersion(dataset, 'regions', () => rankRegions(dataset));
    },
    async calendar() {
      // A seasonal calendar: it starts from the real current month, whatever the data's date.
      const { dataset } = await load();
      const now = deps.clock.now();
      return oncePerVersion(dataset, `calendar ${now.getUTCFullYear()}-${now.getUTCMonth()}`, () => buildCalendar(dataset, now));
    },
    async portfolio(body: PortfolioBody) {
      const { dataset, context, age } = await load();
      const stress = stressPortfolio(dataset, body, context);
      return { ...stress, ...age(stress.asOf) };
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
