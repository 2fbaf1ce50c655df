import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { documentedCapabilities } from '../../platform/capabilities.js';
import { AppError } from '../../platform/errors.js';
import { argumentProblem } from './arguments.js';
import { injectRoute, refusedArguments, resultOfAnswer, type RouteAnswer, runRouteRequest, toolRefusal } from './call-route.js';
import type { JsonSchema } from './json-schema.js';
import { anyStructuredError, type RailTool, type ToolCall, toolResult } from './tool.js';

/**
 * Every tool name of the public dpx-mcp client (untitledfinancial/dpx-mcp, index.js), with its
 * meaning and argument names, answered from this rail's own routes (decision 0081): nothing is
 * typed in here but names and the mapping; every figure comes from a route's answer, and what the
 * rail does not know is said so. Each tool is listed only where the routes it reads are served.
 */

interface DpxSpec {
  name: string;
  description: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  readOnly: boolean;
  /** The routes it reads (`METHOD /route`); the first one's service shapes its refusals. */
  routes: string[];
  run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>;
}

const amountUsd = { type: 'number', exclusiveMinimum: 0, description: 'settlement amount in USD' };
const hasFx = { type: 'boolean', description: 'source and destination currencies differ (adds the FX fee)' };
const esgScore = { type: 'number', minimum: 0, maximum: 100, description: "ESG score 0-100; omitted, the ESG oracle's latest average" };

/** Query text of the given arguments (numbers and booleans as REST reads them). */
function queryOf(args: Record<string, unknown>, names: readonly string[]): string {
  const query = new URLSearchParams();
  for (const name of names) if (args[name] !== undefined) query.set(name, String(args[name]));
  const text = query.toString();
  return text ? `?${text}` : '';
}

const get = (url: string, call: ToolCall) => injectRoute({ method: 'GET', url }, call);
const ok = (answer: RouteAnswer) => answer.status < 300;
/** A route's body, or what it answered instead (status and error body), for a composed answer. */
const bodyOrRefusal = (answer: RouteAnswer) => (ok(answer) ? answer.body : { unavailable: true, status: answer.status, answer: answer.body });

const NOT_PUBLISHED = (what: string) => ({ published: false, note: `This deployment publishes no ${what}; nothing is said here that the rail does not publish.` });

const INTELLIGENCE_BY_FOCUS: Record<string, string> = {
  FX: '/v1/intelligence/currency-stress',
  climate: '/v1/intelligence/climate-pulse',
  geopolitical: '/v1/intelligence/instability',
  commodities: '/v1/intelligence/commodity',
  yield: '/v1/intelligence/macro-stress',
};
const CROSS_DOMAIN_INTELLIGENCE = '/v1/intelligence/causal-graph';

const SECTIONS = ['all', 'overview', 'product', 'traction', 'market', 'financials', 'compliance', 'raise', 'founder', 'risks'] as const;

async function investmentSection(section: string, call: ToolCall): Promise<unknown> {
  switch (section) {
    case 'overview': {
      const [stability, esg] = await Promise.all([get('/stability/manifest', call), get('/esg/manifest', call)]);
      return { stabilityOracle: bodyOrRefusal(stability), esgOracle: bodyOrRefusal(esg) };
    }
    case 'product': {
      const capabilities = await documentedCapabilities(call.app);
      const services: Record<string, string[]> = {};
      for (const capability of capabilities) (services[capability.documentUrl.replace(/\/openapi\.json$/, '') || '/'] ??= []).push(capability.key);
      const manifest = await get('/stability/manifest', call);
      const contracts = ok(manifest) ? (manifest.body as { contracts?: unknown }).contracts : undefined;
      return { capabilities: capabilities.length, services, contracts: contracts ?? null, mcp: { endpoint: '/mcp', transport: 'streamable-http', stdio: 'npm run --silent mcp' } };
    }
    case 'financials': {
      const schedule = await get('/stability/fee-schedule', call);
      return { feeSchedule: bodyOrRefusal(schedule), revenue: NOT_PUBLISHED('revenue or financial model') };
    }
    case 'compliance': {
      const [datasets, calendar] = await Promise.all([get('/compliance/reference-data', call), get('/compliance/compliance/regulatory-calendar', call)]);
      return { referenceData: bodyOrRefusal(datasets), regulatoryCalendar: bodyOrRefusal(calendar) };
    }
    case 'traction':
      return { ...NOT_PUBLISHED('traction figures'), seeAlso: "the rail's own settlement volume is in the paid treasury report, GET /reports/report/treasury" };
    case 'market':
      return NOT_PUBLISHED('market sizing');
    case 'raise':
      return NOT_PUBLISHED('fundraising details');
    case 'founder':
      return NOT_PUBLISHED('founder or team details');
    default:
      return NOT_PUBLISHED('investment risk assessment');
  }
}

const SPECS: readonly DpxSpec[] = [
  {
    name: 'get_manifest',
    description: "The rail's protocol manifest (the stability oracle's: capabilities, fees, contracts, endpoints) and the settlement agent's AP2 capability document. Call first.",
    readOnly: true,
    routes: ['GET /stability/manifest'],
    async run(_args, call) {
      const [oracle, agent] = await Promise.all([get('/stability/manifest', call), get('/agent/.well-known/ap2.json', call)]);
      if (!ok(oracle)) return resultOfAnswer(oracle);
      return toolResult({ oracle: oracle.body, agent: bodyOrRefusal(agent) });
    },
  },
  {
    name: 'get_quote',
    description: 'A binding fee quote (GET /stability/quote): core, FX, ESG and license fees, total, net amount, the oracle context and a quoteId to settle with.',
    properties: { amountUsd, hasFx, esgScore, monthlyVolumeUsd: { type: 'number', minimum: 0, description: 'monthly volume for the volume discount tier' } },
    required: ['amountUsd'],
    readOnly: true,
    routes: ['GET /stability/quote'],
    run: (args, call) => runRouteRequest({ method: 'GET', url: `/stability/quote${queryOf(args, ['amountUsd', 'hasFx', 'esgScore', 'monthlyVolumeUsd'])}` }, call),
  },
  {
    name: 'get_esg_score',
    description:
      "The ESG score of a wallet's registered entity (address: GET /compliance/esg/score/wallet/{address}), or, without an address, the rail's live E, S, G scores and ESG fee (GET /stability/esg-score).",
    properties: { address: { type: 'string', description: 'wallet address (0x...); omit for the rail score' } },
    readOnly: true,
    routes: ['GET /stability/esg-score', 'GET /compliance/esg/score/wallet/:wallet'],
    run: (args, call) => runRouteRequest({ method: 'GET', url: typeof args.address === 'string' ? `/compliance/esg/score/wallet/${encodeURIComponent(args.address)}` : '/stability/esg-score' }, call),
  },
  {
    name: 'get_reliability',
    description: 'Live oracle reliability and stability signal (GET /stability/reliability): uptime, stability score and band, peg deviation, confidence, USD health.',
    readOnly: true,
    routes: ['GET /stability/reliability'],
    run: (_args, call) => runRouteRequest({ method: 'GET', url: '/stability/reliability' }, call),
  },
  {
    name: 'get_oracle_status',
    description: 'The latest stability oracle run, its full output (GET /stability/api/status). The ESG oracle is separate (get_esg_score).',
    readOnly: true,
    routes: ['GET /stability/api/status'],
    run: (_args, call) => runRouteRequest({ method: 'GET', url: '/stability/api/status' }, call),
  },
  {
    name: 'get_fee_schedule',
    description: 'The fee schedule (GET /stability/fee-schedule): components, volume tiers, ESG tiers, scenario examples and published competitive benchmarks.',
    readOnly: true,
    routes: ['GET /stability/fee-schedule'],
    run: (_args, call) => runRouteRequest({ method: 'GET', url: '/stability/fee-schedule' }, call),
  },
  {
    name: 'verify_fees',
    description: 'Whether the off-chain quote equals what the settlement router contract charges (GET /stability/verify-fees): feesMatch. Call after get_quote, before settle.',
    properties: { amountUsd, hasFx, esgScore },
    required: ['amountUsd'],
    readOnly: true,
    routes: ['GET /stability/verify-fees'],
    run: (args, call) => runRouteRequest({ method: 'GET', url: `/stability/verify-fees${queryOf(args, ['amountUsd', 'hasFx', 'esgScore'])}` }, call),
  },
  {
    name: 'compare_to_competitors',
    description:
      "This rail's all-in fee for an amount against published alternatives: the quote's own comparison (each alternative's estimated fee and the rail's saving) and the fee schedule's benchmarks with their sources and dates. hasFx defaults to true, as in dpx-mcp.",
    properties: { amountUsd, hasFx: { ...hasFx, default: true }, esgScore },
    required: ['amountUsd'],
    readOnly: true,
    routes: ['GET /stability/quote', 'GET /stability/fee-schedule'],
    async run(args, call) {
      const quote = await get(`/stability/quote${queryOf({ hasFx: true, ...args }, ['amountUsd', 'hasFx', 'esgScore'])}`, call);
      if (!ok(quote)) return resultOfAnswer(quote);
      const schedule = await get('/stability/fee-schedule', call);
      if (!ok(schedule)) return resultOfAnswer(schedule);
      const { quoteId, competitive } = quote.body as { quoteId: string; competitive: { railTotalPct: number; railTotalUsd: number; comparisons: Array<{ estimatedUsd: number }> } };
      const published = (schedule.body as { competitive: { benchmarks: unknown[]; note: string } }).competitive;
      return toolResult({
        amountUsd: args.amountUsd,
        rail: { pct: competitive.railTotalPct, usd: competitive.railTotalUsd, quoteId },
        comparison: competitive.comparisons.map((alternative) => ({ ...alternative, railCheaper: alternative.estimatedUsd > competitive.railTotalUsd })),
        benchmarks: published.benchmarks,
        note: published.note,
      });
    },
  },
  {
    name: 'get_rail_status',
    description:
      'What this rail monitors, live: the process health (each subgraph, the database, the chain) and the stability oracle. Local payment rails (PIX, SEPA, FedACH, CHAPS, UPI, PromptPay ...) are not monitored here: any named in rails is answered UNKNOWN, and said so.',
    properties: { rails: { type: 'array', items: { type: 'string' }, description: 'local rails to ask about' }, region: { type: 'string' } },
    readOnly: true,
    routes: ['GET /stability/reliability'],
    async run(args, call) {
      const [health, oracle] = await Promise.all([get('/health', call), get('/stability/reliability', call)]);
      const asked = Array.isArray(args.rails) ? (args.rails as string[]) : [];
      return toolResult({
        monitored: { process: bodyOrRefusal(health), stabilityOracle: bodyOrRefusal(oracle) },
        rails: Object.fromEntries(asked.map((rail) => [rail, { status: 'UNKNOWN', monitored: false }])),
        ...(typeof args.region === 'string' ? { region: { name: args.region, monitored: false } } : {}),
        note: 'This rail settles USDC on-chain and monitors its own parts (subgraphs, database, chain, oracle feeds); it does not monitor local payment rails, so it reports no status for them.',
      });
    },
  },
  {
    name: 'settle',
    description:
      'Settle through the settlement agent (POST /agent/settle) as the agent of your X-Agent-Id / X-Agent-Key (stdio: RAIL_AGENT_ID, RAIL_AGENT_KEY), under its mandate; referenceId is the Idempotency-Key. sandbox (the default, as in dpx-mcp) sends nothing: it answers the fee quote for a USD amount. quoteId, purpose and esgScore are accepted for dpx-mcp clients and not used: the agent computes its own quote when it settles.',
    properties: {
      amount: { type: 'number', exclusiveMinimum: 0 },
      sourceCurrency: { type: 'string' },
      destinationCurrency: { type: 'string' },
      recipientAddress: { type: 'string' },
      mandate: { type: 'string', description: 'an AP2 payment mandate (SD-JWT)' },
      referenceId: { type: 'string', description: 'the Idempotency-Key: the same reference and body answer the first settlement' },
      sandbox: { type: 'boolean', default: true },
      quoteId: { type: 'string' },
      purpose: { type: 'string' },
      esgScore: { type: 'number' },
    },
    required: ['amount', 'sourceCurrency', 'destinationCurrency', 'recipientAddress'],
    readOnly: false,
    routes: ['POST /agent/settle', 'GET /stability/quote'],
    async run(args, call) {
      if (args.sandbox !== false) {
        if (args.sourceCurrency !== 'USD') return refusedArguments(call.app, '/agent/settle', 'sandbox: a sandbox settlement is quoted in USD; give sourceCurrency "USD", or sandbox false to settle');
        const quote = await get(`/stability/quote${queryOf({ amountUsd: args.amount, hasFx: args.sourceCurrency !== args.destinationCurrency }, ['amountUsd', 'hasFx'])}`, call);
        if (!ok(quote)) return resultOfAnswer(quote);
        return toolResult({ status: 'sandbox', sent: false, quote: quote.body });
      }
      const body = Object.fromEntries(['amount', 'sourceCurrency', 'destinationCurrency', 'recipientAddress', 'mandate'].filter((name) => args[name] !== undefined).map((name) => [name, args[name]]));
      const headers: Record<string, string> = typeof args.referenceId === 'string' ? { 'idempotency-key': args.referenceId } : {};
      return runRouteRequest({ method: 'POST', url: '/agent/settle', body, headers }, call);
    },
  },
  {
    name: 'get_settlement_status',
    description:
      'A settlement by its id: a railPaymentId (pay_...) is the payment (GET /integration/payments/{id}, your institution key or the admin key), a holdId (hld_...) the held settlement (GET /agent/holds/{id}, admin key).',
    properties: { settlementId: { type: 'string' } },
    required: ['settlementId'],
    readOnly: true,
    routes: ['GET /integration/payments/:railPaymentId'],
    run: (args, call) => {
      const id = encodeURIComponent(String(args.settlementId));
      return runRouteRequest({ method: 'GET', url: String(args.settlementId).startsWith('hld_') ? `/agent/holds/${id}` : `/integration/payments/${id}` }, call);
    },
  },
  {
    name: 'get_investment_context',
    description:
      'What this deployment publishes about itself, by section: overview (its manifests), product (its documented capabilities and contracts), financials (its fee schedule), compliance (its reference datasets and regulatory calendar). Traction, market, raise, founder and risks are not published here and are answered as such.',
    properties: { section: { type: 'string', enum: [...SECTIONS], default: 'all' } },
    readOnly: true,
    routes: ['GET /stability/manifest'],
    async run(args, call) {
      const section = typeof args.section === 'string' ? args.section : 'all';
      const names = section === 'all' ? SECTIONS.slice(1) : [section];
      const entries = await Promise.all(names.map(async (name) => [name, await investmentSection(name, call)] as const));
      return toolResult(Object.fromEntries(entries));
    },
  },
  {
    name: 'get_intelligence',
    description:
      'A paid intelligence briefing: focus FX (GET /v1/intelligence/currency-stress), climate (climate-pulse), geopolitical (instability), commodities (commodity), yield (macro-stress); without focus, the cross-domain causal graph (causal-graph). Paid at the route\'s price through an x402 payment in _meta["x402/payment"] or an X-API-Key; without either, the answer is the x402 payment requirements. A txHash (MPP) is not a payment here. horizon and includeSignals are accepted for dpx-mcp clients: each briefing has its own horizon and always carries its signals.',
    properties: {
      focus: { type: 'string', enum: Object.keys(INTELLIGENCE_BY_FOCUS) },
      horizon: { type: 'string', enum: ['30d', '60d', '90d'] },
      includeSignals: { type: 'boolean' },
      txHash: { type: 'string', description: 'not accepted: see the description' },
    },
    readOnly: true,
    routes: [`GET ${CROSS_DOMAIN_INTELLIGENCE}`],
    async run(args, call) {
      if (args.txHash !== undefined) {
        return toolRefusal(
          call.app,
          CROSS_DOMAIN_INTELLIGENCE,
          new AppError('GEN_ERR_BAD_REQUEST', {
            message:
              'txHash: this rail takes no MPP transaction hash. Pay with x402: call without payment to get the requirements, sign one and send it in _meta["x402/payment"]; or send an X-API-Key (stdio: RAIL_API_KEY).',
          }),
        );
      }
      const url = typeof args.focus === 'string' ? INTELLIGENCE_BY_FOCUS[args.focus]! : CROSS_DOMAIN_INTELLIGENCE;
      return runRouteRequest({ method: 'GET', url }, call);
    },
  },
];

export const DPX_TOOL_NAMES = SPECS.map((spec) => spec.name);

function toolOf(spec: DpxSpec): RailTool {
  const inputSchema = { type: 'object' as const, properties: spec.properties ?? {}, ...(spec.required ? { required: spec.required } : {}), additionalProperties: false };
  const errorUrl = spec.routes[0]!.split(' ')[1]!;
  return {
    name: spec.name,
    title: spec.name,
    description: `${spec.description} (dpx-mcp)`,
    inputSchema,
    annotations: { title: spec.name, readOnlyHint: spec.readOnly, destructiveHint: false, idempotentHint: spec.readOnly, openWorldHint: false },
    errorUrl,
    structuredError: anyStructuredError,
    run(args, call) {
      const problem = argumentProblem(args, inputSchema);
      return problem ? Promise.resolve(refusedArguments(call.app, errorUrl, problem)) : spec.run(args, call);
    },
  };
}

/** The dpx-mcp tools whose first route this process serves. */
export function dpxTools(served: ReadonlySet<string>): RailTool[] {
  return SPECS.filter((spec) => served.has(spec.routes[0]!)).map(toolOf);
}
