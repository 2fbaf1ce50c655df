import type { Clock } from '../../platform/clock.js';
import { clip, echo } from '../../platform/echo.js';
import { AppError } from '../../platform/errors.js';
import type { Synthesiser } from '../../platform/synthesis.js';
import type { ForecastDataSource } from './dataset-load.js';
import { type CommodityOutlook, heatCheckInputs, type InputAge, outlookInputs, portfolioInputs, portfolioStressFrom, scenarioResultFrom, tcfdReportFrom } from './domain/index.js';
import { COMMODITY_SYMBOLS, type CommoditySymbol, type ScenarioId } from './domain/index.js';
import type { PortfolioBody, ScenarioBody, TcfdBody } from './inputs.js';
import { type Assess, createLatestVersionCache, type VersionAnswers } from './version-answers.js';

const DAY_MS = 86_400_000;

/** How old the data behind an answer is, beside the instant the model was evaluated at. */
export interface DataAge {
  /** When the figures were evaluated: the snapshot's date in snapshot mode, the refresh's when live. */
  evaluatedAt: string;
  /** Whole days between the newest observation behind the answer and now (the real clock). */
  dataAgeDays: number;
  /** Each input behind the answer with its own as-of and age: climate readings and prices keep their dates (decision 0068). */
  inputs: InputAge[];
}

export interface ForecastServiceDeps {
  clock: Clock;
  synthesiser: Synthesiser;
  source: ForecastDataSource;
  /** The model's expensive part, once per dataset version; assessDataset unless a test counts it. */
  assess?: Assess;
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

/** One request's view of the data: the answers of its dataset version, the real now, and the age of a figure. */
interface LoadedAnswers {
  answers: VersionAnswers;
  now: Date;
  /** The age of a figure dated `asOf` with the inputs behind it; `key` names the figure and its inputs for the age cache. */
  age: (key: string, asOf: string, inputs: () => InputAge[]) => DataAge;
}

type AnswersFor = ReturnType<typeof createLatestVersionCache>;

/** The instants around `nowMs` over which max(0, floor((now - fromMs) / day)) keeps its value. */
function wholeDaysSpan(fromMs: number, nowMs: number): { from: number; until: number } {
  if (nowMs < fromMs + DAY_MS) return { from: -Infinity, until: fromMs + DAY_MS };
  const days = Math.floor((nowMs - fromMs) / DAY_MS);
  return { from: fromMs + days * DAY_MS, until: fromMs + (days + 1) * DAY_MS };
}

interface CachedAge {
  answers: VersionAnswers;
  evaluatedAtMs: number;
  from: number;
  until: number;
  age: DataAge;
}

const MAX_CACHED_AGES = 256;

const ageOf = (evaluatedAt: Date, nowMs: number, asOf: string, inputs: InputAge[]): DataAge => ({
  evaluatedAt: evaluatedAt.toISOString(),
  dataAgeDays: Math.max(0, Math.floor((nowMs - Date.parse(asOf)) / DAY_MS)),
  inputs,
});

/**
 * The DataAge of each figure, kept while nothing in it can change (decision 0094): it was worked
 * out per request (every region's observation dates parsed again, for each GET), yet it changes
 * only with the dataset version, the evaluation instant, or a whole day of age passing:
 * 1. dataAgeDays counts whole days from the figure's asOf;
 * 2. each input's age counts whole days from its asOf date at midnight UTC (domain/input-ages.ts),
 *    so it turns only at midnight UTC.
 * An entry serves the instants where both stay the same, and is worked out again outside them.
 */
function createAgeCache() {
  const entries = new Map<string, CachedAge>();
  return (key: string, answers: VersionAnswers, evaluatedAt: Date, now: Date, asOf: string, inputs: () => InputAge[]): DataAge => {
    const nowMs = now.getTime();
    const evaluatedAtMs = evaluatedAt.getTime();
    const cached = entries.get(key);
    if (cached && cached.answers === answers && cached.evaluatedAtMs === evaluatedAtMs && cached.from <= nowMs && nowMs < cached.until) return cached.age;
    const age = ageOf(evaluatedAt, nowMs, asOf, inputs());
    const ofAsOf = wholeDaysSpan(Date.parse(asOf), nowMs);
    const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
    if (entries.size >= MAX_CACHED_AGES) entries.clear();
    entries.set(key, { answers, evaluatedAtMs, from: Math.max(ofAsOf.from, dayStart), until: Math.min(ofAsOf.until, dayStart + DAY_MS), age });
    return age;
  };
}

async function loadAnswers(deps: ForecastServiceDeps, answersFor: AnswersFor, ages: ReturnType<typeof createAgeCache>): Promise<LoadedAnswers> {
  const loaded = await deps.source.load(deps.clock);
  const now = deps.clock.now();
  const evaluatedAt = loaded.evaluatedAt ?? now;
  const answers = answersFor(loaded, { now: evaluatedAt, dataQuality: loaded.dataQuality });
  // Evaluated now (no instant of its own), the answer changes every millisecond: nothing to keep.
  const age = (key: string, asOf: string, inputs: () => InputAge[]): DataAge =>
    loaded.evaluatedAt === undefined ? ageOf(evaluatedAt, now.getTime(), asOf, inputs()) : ages(key, answers, evaluatedAt, now, asOf, inputs);
  return { answers, now, age };
}

/** The rule-based reasoning is the default synthesis; a configured language model may reword it. */
async function withSynthesis(synthesiser: Synthesiser, outlook: CommodityOutlook): Promise<CommodityOutlook & { reasoningModel: string }> {
  const synthesis = await synthesiser.synthesise({
    topic: `commodity climate outlook ${outlook.symbol}`,
    facts: { ...outlook, reasoning: undefined },
    ruleBasedText: outlook.reasoning,
  });
  return synthesis ? { ...outlook, reasoning: synthesis.text, reasoningModel: synthesis.model } : { ...outlook, reasoningModel: synthesiser.model };
}

/** The forecast capabilities, called alike by routes.ts, resolvers.ts and the MCP tools. */
export function createForecastService(deps: ForecastServiceDeps) {
  const answersFor = createLatestVersionCache(deps.assess);
  const ages = createAgeCache();
  const load = () => loadAnswers(deps, answersFor, ages);

  return {
    async heatCheck() {
      const { answers, now, age } = await load();
      const heatCheck = answers.heatCheck();
      return { ...heatCheck, ...age('heat-check', heatCheck.asOf, () => heatCheckInputs(answers.assessment(), now)) };
    },
    async commodityOutlook(symbol: CommoditySymbol) {
      const { answers, now, age } = await load();
      const outlook = await withSynthesis(deps.synthesiser, answers.outlook(symbol));
      return { ...outlook, ...age(`outlook ${symbol}`, outlook.asOf, () => outlookInputs(answers.assessment(), symbol, now)) };
    },
    async regions() {
      const { answers } = await load();
      return answers.regions();
    },
    async calendar() {
      // A seasonal calendar: it starts from the real current month, whatever the data's date.
      const { answers, now } = await load();
      return answers.calendar(now);
    },
    async portfolio(body: PortfolioBody) {
      const { answers, now, age } = await load();
      const assessment = answers.assessment();
      const stress = portfolioStressFrom(assessment, body);
      const symbols = body.positions.map((position) => position.symbol);
      return { ...stress, ...age(`portfolio ${stress.asOf} ${symbols.join(',')}`, stress.asOf, () => portfolioInputs(assessment, symbols, now)) };
    },
    async scenario(body: ScenarioBody) {
      const { answers } = await load();
      const assessment = answers.assessment();
      const scenarios = assessment.dataset.scenarios;
      // Object.hasOwn, not `in`: "constructor", "__proto__" and "toString" are keys of every object.
      if (!Object.hasOwn(scenarios, body.scenario)) {
        throw new AppError('FCT_ERR_UNKNOWN_SCENARIO', {
          message: `Unknown scenario ${echo(body.scenario)}; built-in scenarios are ${Object.keys(scenarios).join(', ')}.`,
        });
      }
      return scenarioResultFrom(assessment, { scenario: body.scenario as ScenarioId, positions: body.positions ?? [] });
    },
    async tcfdReport(body: TcfdBody) {
      const { answers } = await load();
      return tcfdReportFrom(answers.assessment(), body);
    },
  };
}

export type ForecastService = ReturnType<typeof createForecastService>;
