import type { Load } from './load.js';

/** What is measured: the REST routes, the GraphQL operations, and the targets they are held to. */

export interface RestWorkload {
  label: string;
  load: Load;
  /** Least acceptable rail / bare Fastify ratio of req/s (issue 27: 0.5 for the quote, 0.6 for a cached GET, 0.4 for the portfolio). */
  target: number;
}

const QUOTE_TERMS = { amountUsd: 10000, hasFx: true, esgScore: 75 };

const PORTFOLIO = {
  positions: ['WHEAT', 'CORN', 'SOYB', 'COFFEE', 'COCOA', 'COTTON', 'SUGAR', 'WTI', 'NG', 'COPPER'].map((symbol, index) => ({ symbol, notionalUsd: 100_000 * (index + 1) })),
};

export const REST_WORKLOADS: readonly RestWorkload[] = [
  { label: 'GET /stability/quote?amountUsd=10000&hasFx=true&esgScore=75', load: { path: '/stability/quote?amountUsd=10000&hasFx=true&esgScore=75' }, target: 0.5 },
  { label: 'POST /stability/quote (same terms, JSON body)', load: { path: '/stability/quote', method: 'POST', body: JSON.stringify(QUOTE_TERMS) }, target: 0.5 },
  { label: 'GET /esg/quote?amountUsd=10000&esgScore=75', load: { path: '/esg/quote?amountUsd=10000&esgScore=75' }, target: 0.6 },
  { label: 'GET /stability/reliability (issue 11)', load: { path: '/stability/reliability' }, target: 0.6 },
  { label: 'GET /esg/esg-score (issue 11)', load: { path: '/esg/esg-score' }, target: 0.6 },
  { label: 'GET /forecast/heat-check', load: { path: '/forecast/heat-check' }, target: 0.6 },
  { label: 'GET /forecast/commodity/WHEAT', load: { path: '/forecast/commodity/WHEAT' }, target: 0.6 },
  { label: 'GET /forecast/regions', load: { path: '/forecast/regions' }, target: 0.6 },
  { label: 'POST /forecast/portfolio (10 positions)', load: { path: '/forecast/portfolio', method: 'POST', body: JSON.stringify(PORTFOLIO) }, target: 0.4 },
];

export interface GraphQLWorkload {
  name: string;
  /** The JSON body of the POST. */
  body: string;
  /** The subgraph that owns the root field (for a gateway composed of that one service). */
  subgraph: string;
  /** Least acceptable rail / naive Apollo ratio; undefined: a figure without a target. */
  target?: number;
}

export const FEE_QUOTE: GraphQLWorkload = {
  name: 'feeQuote',
  body: JSON.stringify({
    query:
      '{ feeQuote(input: {amountUsd: 10000, hasFx: true, esgScore: 75}) { quoteId volumeTier fees { core { bps usd } fx { bps usd } esg { bps pct usd score tier } license { bps usd } total { bps pct usd } } settlement { netUsd grossUsd } } }',
  }),
  subgraph: 'fees',
  target: 3.5,
};

export const HEAT_CHECK: GraphQLWorkload = {
  name: 'heatCheck',
  body: JSON.stringify({ query: '{ heatCheck { asOf commodities { symbol status signal } } }' }),
  subgraph: 'forecast',
  target: 3.5,
};

export const PORTFOLIO_STRESS: GraphQLWorkload = {
  name: 'portfolioStress (10 positions)',
  body: JSON.stringify({
    query:
      'query ($input: PortfolioInput!) { portfolioStress(input: $input) { portfolioRiskScore exposureByTier { GREEN YELLOW RED } worstCaseDrawdown { usd pct } positions { symbol climateRiskScore status } recommendations } }',
    variables: { input: PORTFOLIO },
  }),
  subgraph: 'forecast',
};

/** The load of one GraphQL operation at a path. */
export function graphQLLoad(workload: GraphQLWorkload, path: string): Load {
  return { path, method: 'POST', body: workload.body };
}

/** The 512 KB request of issue 6 (9,000 x commodities{outlook}): time to refusal, and /health meanwhile. */
export const HOSTILE_QUERY = JSON.stringify({ query: `{ ${Array.from({ length: 9000 }, () => 'commodities { outlook { symbol status confidence } }').join(' ')} }` });
