import { z } from 'zod';

/**
 * The only place that reads the environment. Every default is the embedded mode of DESIGN.md §2:
 * PGlite in ./data, the in-process EVM, the shipped snapshots and the rule-based synthesiser.
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a lower-case SQL identifier')
    .optional(),
  PUBLIC_BASE_URL: z.string().url().optional(),
  QUOTE_SIGNING_KEY: z.string().min(32, 'QUOTE_SIGNING_KEY must hold at least 32 characters').optional(),
  SUBGRAPH_URLS: z.string().optional(),
  CONTRACT_TOKEN: z.string().optional(),
  CONTRACT_ESG_ORACLE: z.string().optional(),
  CONTRACT_REDISTRIBUTION: z.string().optional(),
  CONTRACT_STABILITY_PID: z.string().optional(),
  CONTRACT_BASKET_PEG: z.string().optional(),
  FORECAST_LIVE: booleanFromEnv.default(false),
  FORECAST_LIVE_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  FRED_API_KEY: z.string().optional(),
  SYNTHESIS_LLM_URL: z.string().url().optional(),
  SYNTHESIS_LLM_MODEL: z.string().optional(),
  SYNTHESIS_LLM_API_KEY: z.string().optional(),
  SYNTHESIS_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
});

export type SubgraphName = 'fees' | 'compliance' | 'payments' | 'intelligence' | 'forecast';

export interface Config {
  port: number;
  host: string;
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL'];
  dataDir: string;
  databaseUrl: string | undefined;
  /** Postgres schema holding our tables; lets tests and tenants share one database. */
  databaseSchema: string | undefined;
  publicBaseUrl: string | undefined;
  /** HMAC key for quote ids. Undefined means one is generated and kept in the data folder. */
  quoteSigningKey: string | undefined;
  /** When set, the gateway reaches these subgraphs over HTTP instead of in-process. */
  subgraphUrls: Partial<Record<SubgraphName, string>>;
  contracts: {
    token: string | null;
    esgOracle: string | null;
    redistribution: string | null;
    stabilityPID: string | null;
    basketPeg: string | null;
  };
  forecast: { live: boolean; liveTimeoutMs: number; fredApiKey: string | undefined };
  synthesis: {
    llmUrl: string | undefined;
    llmModel: string | undefined;
    llmApiKey: string | undefined;
    timeoutMs: number;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses `name=url,name=url` into a map, refusing unknown subgraph names. */
function parseSubgraphUrls(raw: string | undefined): Config['subgraphUrls'] {
  if (!raw) return {};
  const known: SubgraphName[] = ['fees', 'compliance', 'payments', 'intelligence', 'forecast'];
  const entries = raw.split(',').map((pair) => pair.trim()).filter(Boolean);
  const urls: Config['subgraphUrls'] = {};
  for (const entry of entries) {
    const [name, url] = entry.split('=', 2);
    if (!name || !url || !known.includes(name as SubgraphName)) {
      throw new ConfigError(`SUBGRAPH_URLS entry "${entry}" must be <subgraph>=<url> with a known subgraph`);
    }
    urls[name as SubgraphName] = url;
  }
  return urls;
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const env = parsed.data;
  return {
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.DATABASE_SCHEMA,
    publicBaseUrl: env.PUBLIC_BASE_URL,
    quoteSigningKey: env.QUOTE_SIGNING_KEY,
    subgraphUrls: parseSubgraphUrls(env.SUBGRAPH_URLS),
    contracts: {
      token: env.CONTRACT_TOKEN ?? null,
      esgOracle: env.CONTRACT_ESG_ORACLE ?? null,
      redistribution: env.CONTRACT_REDISTRIBUTION ?? null,
      stabilityPID: env.CONTRACT_STABILITY_PID ?? null,
      basketPeg: env.CONTRACT_BASKET_PEG ?? null,
    },
    forecast: {
      live: env.FORECAST_LIVE,
      liveTimeoutMs: env.FORECAST_LIVE_TIMEOUT_MS,
      fredApiKey: env.FRED_API_KEY,
    },
    synthesis: {
      llmUrl: env.SYNTHESIS_LLM_URL,
      llmModel: env.SYNTHESIS_LLM_MODEL,
      llmApiKey: env.SYNTHESIS_LLM_API_KEY,
      timeoutMs: env.SYNTHESIS_TIMEOUT_MS,
    },
  };
}
