import { validateMnemonic } from '@scure/bip39';
import { getAddress, isAddress } from 'viem';
import { english } from 'viem/accounts';
import { z } from 'zod';
import { isP256Point, type PublicP256Jwk, publicP256JwkShape } from './credentials.js';
import { DEFAULT_FEED_BASE_URLS } from './sources/options.js';

/**
 * The only place that reads the environment, and the only place a variable is declared: its name,
 * where it lands in Config, its type and default, and its documentation (docs/configuration.md is
 * generated from this table by `npm run docs:config`; a test keeps them equal). Every default is
 * the embedded mode of DESIGN.md §2: PGlite in ./data, the shipped snapshots, the rule-based
 * synthesiser, all subgraphs in one process.
 */
interface Variable<S extends z.ZodType> {
  env: string;
  schema: S;
  doc: string;
  /** How the default reads in the docs when it is not a literal (e.g. "generated in DATA_DIR"). */
  defaultDoc?: string;
}

function variable<S extends z.ZodType>(env: string, schema: S, doc: string, defaultDoc?: string): Variable<S> {
  return { env, schema, doc, ...(defaultDoc ? { defaultDoc } : {}) };
}

const booleanText = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
const milliseconds = (fallback: number) => z.coerce.number().int().positive().max(3_600_000).default(fallback);
const positiveCount = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** An EVM address: 0x and 40 hex digits; a mixed-case one must carry a valid EIP-55 checksum. */
const evmAddress = z
  .string()
  .refine((value) => isAddress(value, { strict: true }), 'must be an EVM address (0x + 40 hex digits, EIP-55 checksum when mixed-case)')
  .transform((value) => getAddress(value));
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be 0x followed by 64 hex digits');
/** A BIP-39 mnemonic of the english wordlist, its checksum right (a mistyped word would derive other accounts); words split by any whitespace. */
const bip39Mnemonic = z
  .string()
  .transform((value) => value.trim().split(/\s+/).join(' '))
  .refine((value) => validateMnemonic(value, english), 'must be a BIP-39 mnemonic of the english wordlist (12 to 24 words, checksum valid)');
const sqlIdentifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier');

/** `name=url,name=url`; which names exist is the gateway's registry's business, not the config's. */
const subgraphUrlList = z
  .string()
  .optional()
  .transform((raw, context) => {
    const urls: Record<string, string> = {};
    for (const entry of (raw ?? '')
      .split(',')
      .map((pair) => pair.trim())
      .filter(Boolean)) {
      const [name, url] = entry.split('=', 2);
      if (!name || !url || !/^[a-z][a-z0-9-]*$/.test(name) || !z.url().safeParse(url).success) {
        context.addIssue({ code: 'custom', message: `entry "${entry.slice(0, 80)}" must be <subgraph>=<url>` });
        return z.NEVER;
      }
      urls[name] = url;
    }
    return urls;
  });

/**
 * AP2_TRUSTED_ISSUERS: a JSON object mapping an issuer id (the `iss` of an AP2 mandate) to its
 * P-256 public key as a JWK (RFC 7517), or to `{"jwk": <JWK>, "fundingWallets": [<address>...]}`
 * naming the wallets whose transfers to the rail's treasury are that issuer's deposits (decision
 * 0049 §9: a mandate alone is paid from its issuer's funds). Only ES256 issuers, keys on the
 * curve, no private member; a wallet funds one issuer. Parsed into a Map so that an issuer named
 * `__proto__` or `constructor` is data, not a prototype.
 */
const MAX_TRUSTED_ISSUERS = 100;
const MAX_ISSUER_FUNDING_WALLETS = 20;
export interface Ap2TrustedIssuer {
  jwk: PublicP256Jwk;
  /** Lower-case 0x addresses: the issuer's funding wallets, set by the operator; empty when none. */
  fundingWallets: readonly string[];
}
const trustedIssuerJwk = z
  .strictObject({ ...publicP256JwkShape, alg: z.literal('ES256').optional(), use: z.literal('sig').optional(), kid: z.string().max(128).optional() })
  .refine(isP256Point, 'must be a point of the P-256 curve')
  .transform(({ kty, crv, x, y }): PublicP256Jwk => ({ kty, crv, x, y }));
const issuerWithWallets = z
  .strictObject({ jwk: trustedIssuerJwk, fundingWallets: z.array(evmAddress).max(MAX_ISSUER_FUNDING_WALLETS, `must name at most ${MAX_ISSUER_FUNDING_WALLETS} wallets`).optional() })
  .transform(({ jwk, fundingWallets }): Ap2TrustedIssuer => ({ jwk, fundingWallets: [...new Set((fundingWallets ?? []).map((wallet) => wallet.toLowerCase()))] }));
const issuerJwkOnly = trustedIssuerJwk.transform((jwk): Ap2TrustedIssuer => ({ jwk, fundingWallets: [] }));
/** An entry with a `jwk` member is the object form; any other is read as the JWK itself (the form before decision 0049 §9). */
const trustedIssuerEntry = (value: unknown) => (value !== null && typeof value === 'object' && 'jwk' in value ? issuerWithWallets : issuerJwkOnly).safeParse(value);
const ISSUERS_SHAPE = 'must be a JSON object {"<issuer>": <public JWK> or {"jwk": <public JWK>, "fundingWallets": [<address>, ...]}, ...}';
const trustedIssuerMap = z
  .string()
  .optional()
  .transform((raw, context): ReadonlyMap<string, Ap2TrustedIssuer> => {
    const issuers = new Map<string, Ap2TrustedIssuer>();
    if (raw === undefined) return issuers;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      context.addIssue({ code: 'custom', message: ISSUERS_SHAPE });
      return z.NEVER;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      context.addIssue({ code: 'custom', message: ISSUERS_SHAPE });
      return z.NEVER;
    }
    const entries = Object.entries(parsed);
    if (entries.length > MAX_TRUSTED_ISSUERS) context.addIssue({ code: 'custom', message: `must name at most ${MAX_TRUSTED_ISSUERS} issuers` });
    const walletIssuer = new Map<string, string>();
    for (const [issuer, value] of entries) {
      const name = JSON.stringify(issuer.slice(0, 80));
      // eslint-disable-next-line no-control-regex -- the control characters are what this refuses
      if (issuer.length === 0 || issuer.length > 512 || /[\u0000-\u001f\u007f]/.test(issuer)) {
        context.addIssue({ code: 'custom', message: `issuer ${name} must be 1 to 512 characters without control characters` });
        continue;
      }
      const entry = trustedIssuerEntry(value);
      if (!entry.success) {
        context.addIssue({ code: 'custom', message: `issuer ${name}: ${entry.error.issues.map((issue) => `${issue.path.join('.') || 'key'} ${issue.message}`).join(', ')}` });
        continue;
      }
      for (const wallet of entry.data.fundingWallets) {
        const other = walletIssuer.get(wallet);
        if (other !== undefined) context.addIssue({ code: 'custom', message: `wallet ${wallet} funds issuer ${JSON.stringify(other.slice(0, 80))} already: a wallet funds one issuer` });
        walletIssuer.set(wallet, issuer);
      }
      issuers.set(issuer, entry.data);
    }
    return issuers;
  });

export const configVariables = {
  server: {
    port: variable('PORT', z.coerce.number().int().min(0).max(65_535).default(4000), 'listening port'),
    host: variable('HOST', z.string().default('127.0.0.1'), 'listening address (`0.0.0.0` to expose)'),
    logLevel: variable('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'), 'pino level (`silent` in tests)'),
    production: variable(
      'NODE_ENV',
      z
        .string()
        .optional()
        .transform((value) => value === 'production'),
      'the production switch: `production` turns off GraphQL introspection, schema suggestions in errors and `_service` on subgraph endpoints',
      'unset (development)',
    ),
    publicBaseUrl: variable('PUBLIC_BASE_URL', z.url().optional(), 'the public origin clients use; its host is also accepted by the MCP endpoint'),
    requestTimeoutMs: variable('REQUEST_TIMEOUT_MS', milliseconds(15_000), 'longest time a request may take before it is answered 503'),
    shutdownGraceMs: variable('SHUTDOWN_GRACE_MS', milliseconds(10_000), 'on SIGTERM, how long in-flight requests may finish before the process exits'),
  },
  database: {
    dataDir: variable(
      'DATA_DIR',
      z.string().min(1).default('./data'),
      'PGlite data, the generated signing keys and the embedded chain (`chain/journal.jsonl` and its secret `chain/mnemonic`, decision 0052); one process at a time',
    ),
    url: variable('DATABASE_URL', z.url().optional(), 'PostgreSQL connection string; migrations run at start', 'unset (PGlite)'),
    schema: variable('DATABASE_SCHEMA', sqlIdentifier.optional(), 'Postgres schema for our tables'),
    migrations: variable(
      'DATABASE_MIGRATE',
      z.enum(['auto', 'check']).default('auto'),
      'PostgreSQL: `auto` applies pending migrations at start, one process at a time under an advisory lock; `check` applies none and refuses to start when the database is behind the code (decision 0086)',
    ),
    poolSize: variable('DATABASE_POOL_SIZE', positiveCount(10), 'connections in the PostgreSQL pool'),
    connectTimeoutMs: variable('DATABASE_CONNECT_TIMEOUT_MS', milliseconds(5_000), 'longest wait for a PostgreSQL connection'),
    statementTimeoutMs: variable('DATABASE_STATEMENT_TIMEOUT_MS', milliseconds(5_000), 'longest a query may run or wait (server statement_timeout and client bound)'),
    writeBehindFlushMs: variable('WRITE_BEHIND_FLUSH_MS', milliseconds(100), 'how long an audit record (a quote, a VoP check) waits to be written with others; a crash loses at most this window'),
    writeBehindMaxQueued: variable(
      'WRITE_BEHIND_MAX_QUEUED',
      positiveCount(50_000),
      'most audit records held while the database is down; more quotes are dropped (`write_behind_dropped_total`), more VoP checks written at once',
    ),
  },
  signing: {
    quoteSigningKey: variable(
      'QUOTE_SIGNING_KEY',
      z.string().min(32, 'must hold at least 32 characters').optional(),
      'HMAC key for quote ids (at least 32 characters); give every replica the same',
      'generated in `DATA_DIR`',
    ),
    issuerSigningJwk: variable(
      'ISSUER_SIGNING_JWK',
      z.string().min(1).optional(),
      "private P-256 JWK (JSON: kty, crv, x, y, d) signing the agents' verifiable credentials (ES256), published in the issuer's did:web document; give every replica the same",
      'generated in `DATA_DIR`',
    ),
    webhookSigningKey: variable(
      'WEBHOOK_SIGNING_KEY',
      z.string().min(32, 'must hold at least 32 characters').optional(),
      "HMAC key of the payment callbacks' X-Rail-Signature (at least 32 characters), issued by the operator to receivers (docs/webhooks.md); give every replica the same",
      'generated in `DATA_DIR` (`webhook-signing.key`)',
    ),
  },
  gateway: {
    subgraphUrls: variable('SUBGRAPH_URLS', subgraphUrlList, '`name=url,...`: the gateway reaches these subgraphs over HTTP; with a gateway alone every subgraph must be named', 'unset (in-process)'),
    subgraphTimeoutMs: variable('SUBGRAPH_TIMEOUT_MS', milliseconds(5_000), 'longest the gateway waits for a subgraph over HTTP'),
    maxTokens: variable('GRAPHQL_MAX_TOKENS', positiveCount(4_000), 'most tokens a GraphQL document may hold (refused while parsing)'),
    maxDepth: variable('GRAPHQL_MAX_DEPTH', positiveCount(12), 'deepest field nesting of an operation'),
    maxAliases: variable('GRAPHQL_MAX_ALIASES', positiveCount(30), 'most aliases in an operation'),
    maxDirectives: variable('GRAPHQL_MAX_DIRECTIVES', positiveCount(20), 'most directives in an operation'),
    maxCost: variable('GRAPHQL_MAX_COST', positiveCount(5_000), 'highest estimated cost of an operation (1 a field, lists multiplied)'),
    listSizeEstimate: variable('GRAPHQL_LIST_SIZE_ESTIMATE', positiveCount(20), 'items assumed in a list of unknown length when estimating cost'),
    maxResponseBytes: variable('GRAPHQL_MAX_RESPONSE_BYTES', positiveCount(4 * 1024 * 1024), 'largest GraphQL response body'),
  },
  chain: {
    rpcUrl: variable('RPC_URL', z.url().optional(), 'JSON-RPC endpoint of Base (chainId 8453); unset runs the embedded in-process EVM with the contracts deployed at start', 'unset (embedded EVM)'),
    timeoutMs: variable('RPC_TIMEOUT_MS', milliseconds(5_000), 'longest wait for one JSON-RPC call'),
    reconcileAfterMs: variable(
      'RECONCILE_AFTER_MS',
      milliseconds(600_000),
      'how long after its last step a payment left PENDING, or an x402 claim left SETTLING, by a stopped process is resolved from the chain (never under 20 × RPC_TIMEOUT_MS); a payment stopped before its send, after half of it; an x402 claim stopped before its settlement, after twice REQUEST_TIMEOUT_MS (decisions 0039, 0087)',
    ),
    embeddedMnemonic: variable(
      'EMBEDDED_CHAIN_MNEMONIC',
      bip39Mnemonic.optional(),
      "secret BIP-39 mnemonic the embedded rail's accounts are derived from (decision 0052): anyone holding it signs for the rail's treasury and contracts. Set it only where another process must sign as those accounts (tests, benches); must be the mnemonic the chain in `DATA_DIR` was made with",
      'generated in `DATA_DIR` (`chain/mnemonic`)',
    ),
  },
  /** The embedded chain's public POST /rpc (decision 0051): what one caller may make the rail's node do. */
  embeddedRpc: {
    gasCap: variable(
      'EMBEDDED_RPC_GAS_CAP',
      positiveCount(2_000_000),
      'most gas an eth_call or eth_estimateGas at /rpc may burn, and the highest gas limit of a transaction sent there (a token transfer takes about 50,000, a contract deployment about 1 million, a settleBatch of 25 payments about 1.7 million)',
    ),
    timeoutMs: variable('EMBEDDED_RPC_TIMEOUT_MS', milliseconds(2_000), 'longest a call at /rpc waits for its turn and its answer before it is answered with an error'),
    maxBlockRange: variable('EMBEDDED_RPC_MAX_BLOCK_RANGE', positiveCount(1_000), 'most blocks one eth_getLogs at /rpc may cover'),
    maxLogs: variable('EMBEDDED_RPC_MAX_LOGS', positiveCount(10_000), 'most logs one eth_getLogs at /rpc may answer'),
    queueSize: variable('EMBEDDED_RPC_QUEUE_SIZE', positiveCount(8), 'calls at /rpc waiting for their turn (one runs at a time); more are refused at once'),
    requestsPerMinute: variable('EMBEDDED_RPC_RATE_LIMIT', positiveCount(600), 'JSON-RPC calls one client address may make at /rpc per minute (a batch counts each call)'),
    maxBodyBytes: variable('EMBEDDED_RPC_MAX_BODY_BYTES', positiveCount(262_144), 'largest request body at /rpc'),
  },
  contracts: {
    token: variable('CONTRACT_TOKEN', evmAddress.optional(), 'address of the rail token (USDC on Base); embedded: the deployed token', 'unset (null, or the embedded deployment)'),
    router: variable('CONTRACT_ROUTER', evmAddress.optional(), 'address of the settlement router; embedded: the deployed router', 'unset (null, or the embedded deployment)'),
    esgOracle: variable(
      'CONTRACT_ESG_ORACLE',
      evmAddress.optional(),
      'address of the RailEsgOracle contract (decision 0057): each ESG oracle run publishes its scores there from the RAIL_SETTLER_KEY account, which must be its oracle; embedded: the deployed one',
      'unset (null, or the embedded deployment)',
    ),
    redistribution: variable(
      'CONTRACT_REDISTRIBUTION',
      evmAddress.optional(),
      "address of the FeeRedistribution contract, the settlement router's fee recipient splitting the fees (decision 0057); embedded: the deployed one",
      'unset (null, or the embedded deployment)',
    ),
    stabilityPID: variable(
      'CONTRACT_STABILITY_PID',
      evmAddress.optional(),
      'address of the StabilityPID controller fed by each stability oracle run (decision 0057); embedded: the deployed one',
      'unset (null, or the embedded deployment)',
    ),
    basketPeg: variable(
      'CONTRACT_BASKET_PEG',
      evmAddress.optional(),
      'address of the BasketPeg reference (basket weights, peg deviation) fed by each stability oracle run (decision 0057); embedded: the deployed one',
      'unset (null, or the embedded deployment)',
    ),
  },
  access: {
    redisUrl: variable('REDIS_URL', z.url().optional(), 'Redis holding the per-key rate-limit windows, shared by every replica', 'unset (the database holds them)'),
    facilitatorUrl: variable(
      'FACILITATOR_URL',
      z.url().optional(),
      'an x402 facilitator whose /verify and /settle handle payments instead of the rail account',
      'unset (verified and settled on the rail)',
    ),
    settlerKey: variable(
      'RAIL_SETTLER_KEY',
      privateKey.optional(),
      'private key (0x + 64 hex digits) of the account that settles x402 payments (with PAY_TO) and, funded by the institution, native payments through the settlement router on RPC_URL; the embedded rail uses its account #0 for x402 and #8 as the payments treasury',
      'unset',
    ),
    payTo: variable('PAY_TO', evmAddress.optional(), 'address paid by x402 payments on RPC_URL; the embedded rail uses its operator account (the last, #9)', 'unset'),
    internalKey: variable(
      'INTERNAL_KEY',
      z.string().min(32, 'must hold at least 32 characters').optional(),
      "the X-Internal-Key of calls between subgraphs, of internal endpoints (AML) and of transactions signed by the embedded rail's own accounts at /rpc (a process on RPC_URL=<server>/rpc sends it); every process of a split layout needs the same one",
      'unset: a key made per process, known only to its own subgraphs (internal endpoints closed to everyone else)',
    ),
    adminKey: variable(
      'ADMIN_KEY',
      z.string().min(32, 'must hold at least 32 characters').optional(),
      'the operator key (the compliance oracle signing key), presented as Authorization: Bearer for registry administration, for the held agent settlements (/agent/holds, decision 0047) and for key administration (/admin/keys, which `npm run keys` calls while a server holds DATA_DIR, decision 0058); unset closes all three',
      'unset',
    ),
  },
  agent: {
    ap2TrustedIssuers: variable(
      'AP2_TRUSTED_ISSUERS',
      trustedIssuerMap,
      'JSON object mapping each trusted AP2 mandate issuer (`iss`) to its ES256 public key as a P-256 JWK, e.g. `{"https://wallet.example":{"kty":"EC","crv":"P-256","x":"...","y":"..."}}`, or to `{"jwk":{...},"fundingWallets":["0x..."]}` naming the wallets whose transfers to the treasury fund the issuer (a wallet funds one issuer); POST /agent/settle accepts body.mandate only from these issuers (decision 0023), and a mandate alone is paid from its issuer\'s deposits (decision 0049 §9)',
      'unset (no issuer trusted: every body.mandate is refused)',
    ),
  },
  upstream: {
    serviceUrls: variable(
      'SERVICE_URLS',
      subgraphUrlList,
      "`name=url,...`: subgraphs this process calls over HTTP in the split layout (payments calls `compliance` and `fees`; intelligence calls `fees`, `compliance`, `forecast` and `payments`); any other is called in-process through the server's own routes",
      'unset (in-process)',
    ),
    timeoutMs: variable('UPSTREAM_TIMEOUT_MS', milliseconds(5_000), 'longest one call from a subgraph to another (in-process or over HTTP) may take'),
  },
  callbacks: {
    timeoutMs: variable('CALLBACK_TIMEOUT_MS', milliseconds(10_000), "longest a payment callback attempt may wait for the receiver's answer before it is cut and retried"),
    allowPrivateTargets: variable(
      'CALLBACK_ALLOW_PRIVATE_TARGETS',
      booleanText.default(false),
      'deliver payment callbacks to loopback, private and other non-public addresses (tests and single-host set-ups only: a callback URL is chosen by the caller; decision 0024 §9)',
    ),
  },
  forecast: {
    live: variable('FORECAST_LIVE', booleanText.default(false), 'fetch live climate data (Open-Meteo, NASA EONET, GDACS, US Drought Monitor, FRED)'),
    liveTimeoutMs: variable('FORECAST_LIVE_TIMEOUT_MS', milliseconds(5_000), 'timeout of each live source call'),
    fredApiKey: variable('FRED_API_KEY', z.string().optional(), 'FRED key for live prices (forecast), live stability feeds (ORACLE_LIVE) and live intelligence series (INTELLIGENCE_LIVE)'),
  },
  oracles: {
    updateFrequencySeconds: variable(
      'ORACLE_UPDATE_FREQUENCY_SECONDS',
      z.coerce.number().int().min(10).max(86_400).default(300),
      'seconds between scheduled runs of the stability and ESG oracles; one replica runs each interval (decision 0035)',
    ),
    scheduler: variable('ORACLE_SCHEDULER', booleanText.default(true), 'run the oracles on schedule in this process; false: serve only the runs other replicas record (decision 0035)'),
    runTimeoutMs: variable('ORACLE_RUN_TIMEOUT_MS', milliseconds(60_000), 'longest an oracle run may take before it is recorded FAILED'),
    live: variable(
      'ORACLE_LIVE',
      booleanText.default(false),
      'read the stability signal feeds live (FRED with FRED_API_KEY, DefiLlama stablecoins, ...) instead of the shipped snapshot; a feed that fails falls back to the snapshot and says so',
    ),
    fredUrl: variable('ORACLE_FRED_URL', z.url().default('https://api.stlouisfed.org/fred'), 'base URL of the FRED API for the live stability feeds (key: FRED_API_KEY)'),
    defillamaUrl: variable('ORACLE_DEFILLAMA_URL', z.url().default('https://stablecoins.llama.fi'), "base URL of DefiLlama's stablecoins API for the live supply and price feed"),
    liveTimeoutMs: variable('ORACLE_LIVE_TIMEOUT_MS', milliseconds(5_000), 'timeout of each live signal feed call'),
  },
  intelligence: {
    live: variable(
      'INTELLIGENCE_LIVE',
      booleanText.default(false),
      "overlay the intelligence signals' shipped series with the publishers' live ones (FRED with FRED_API_KEY, World Bank Pink Sheet, NOAA GML, NASA GISTEMP, NY Fed GSCPI, ECB, Bank of England; docs/intelligence/live-feeds.md); a series whose feed fails keeps its snapshot and is reported live: false",
    ),
    liveTimeoutMs: variable(
      'INTELLIGENCE_LIVE_TIMEOUT_MS',
      milliseconds(10_000),
      'timeout of each live intelligence feed request, and the longest a signal waits for a refresh in flight before it is computed from the data it already has',
    ),
    refreshSeconds: variable(
      'INTELLIGENCE_REFRESH_SECONDS',
      z.coerce.number().int().min(60).max(86_400).default(3_600),
      'seconds a live intelligence refresh serves before the next one (one refresh at a time; a failed feed is retried at the next)',
    ),
    fredUrl: variable('INTELLIGENCE_FRED_URL', z.url().default(DEFAULT_FEED_BASE_URLS.fred), 'base URL of the FRED API for the live intelligence series (key: FRED_API_KEY)'),
    pinkSheetUrl: variable(
      'INTELLIGENCE_PINK_SHEET_URL',
      z.url().default(DEFAULT_FEED_BASE_URLS.worldbankPinkSheet),
      'URL of the World Bank Pink Sheet monthly workbook (CMO-Historical-Data-Monthly.xlsx)',
    ),
    noaaGmlCo2Url: variable('INTELLIGENCE_NOAA_GML_CO2_URL', z.url().default(DEFAULT_FEED_BASE_URLS.noaaGmlCo2), "NOAA GML's CO2 trends folder (co2_mm_mlo.txt, co2_mm_gl.txt, co2_annmean_mlo.txt)"),
    gistempUrl: variable('INTELLIGENCE_GISTEMP_URL', z.url().default(DEFAULT_FEED_BASE_URLS.gistemp), 'NASA GISTEMP v4 table folder (GLB.Ts+dSST.csv)'),
    gscpiUrl: variable('INTELLIGENCE_GSCPI_URL', z.url().default(DEFAULT_FEED_BASE_URLS.nyfedGscpi), "URL of the New York Fed's GSCPI workbook (gscpi_data.xlsx)"),
    ecbUrl: variable('INTELLIGENCE_ECB_URL', z.url().default(DEFAULT_FEED_BASE_URLS.ecb), 'ECB Data Portal web service root (euro short-term rate)'),
    boeUrl: variable('INTELLIGENCE_BOE_URL', z.url().default(DEFAULT_FEED_BASE_URLS.boe), 'Bank of England Interactive Statistical Database root (SONIA)'),
  },
  mcpStdio: {
    apiKey: variable('RAIL_API_KEY', z.string().optional(), '`npm run mcp` (stdio): sent as X-API-Key with every tool call (paid tools, counted against the key)'),
    institutionKey: variable(
      'RAIL_INSTITUTION_KEY',
      z.string().optional(),
      '`npm run mcp`: sent as Authorization: Bearer (the integration tools act as that institution, or as the admin with ADMIN_KEY)',
    ),
    agentId: variable('RAIL_AGENT_ID', z.string().optional(), '`npm run mcp`: sent as X-Agent-Id (settle as that agent)'),
    agentKey: variable('RAIL_AGENT_KEY', z.string().optional(), "`npm run mcp`: sent as X-Agent-Key (the agent owner's key)"),
  },
  synthesis: {
    llmUrl: variable('SYNTHESIS_LLM_URL', z.url().optional(), 'an OpenAI-compatible chat-completions endpoint for the synthesis fields', 'unset (rule-based)'),
    llmModel: variable('SYNTHESIS_LLM_MODEL', z.string().optional(), 'its model name'),
    llmApiKey: variable('SYNTHESIS_LLM_API_KEY', z.string().optional(), 'its API key'),
    timeoutMs: variable('SYNTHESIS_TIMEOUT_MS', milliseconds(8_000), 'its timeout'),
  },
} as const;

type Sections = typeof configVariables;
export type Config = {
  readonly [Section in keyof Sections]: {
    readonly [Key in keyof Sections[Section]]: Sections[Section][Key] extends Variable<infer S> ? z.output<S> : never;
  };
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function allVariables(): Array<[section: string, key: string, Variable<z.ZodType>]> {
  return Object.entries(configVariables).flatMap(([section, variables]) =>
    Object.entries(variables as Record<string, Variable<z.ZodType>>).map(([key, item]) => [section, key, item] as [string, string, Variable<z.ZodType>]),
  );
}

/** The name of every environment variable the rail reads. */
export function configVariableNames(): string[] {
  return allVariables().map(([, , item]) => item.env);
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const config: Record<string, Record<string, unknown>> = {};
  const problems: string[] = [];
  for (const [section, key, item] of allVariables()) {
    const raw = environment[item.env];
    const parsed = item.schema.safeParse(raw === '' ? undefined : raw);
    if (parsed.success) (config[section] ??= {})[key] = parsed.data;
    else problems.push(`${item.env}: ${parsed.error.issues.map((issue) => issue.message).join(', ')}`);
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  return config as Config;
}

function describeDefault(item: Variable<z.ZodType>): string {
  if (item.defaultDoc) return item.defaultDoc;
  const parsed = item.schema.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined || (parsed.data === false && item.env === 'NODE_ENV')) return 'unset';
  return `\`${String(parsed.data)}\``;
}

/** docs/configuration.md, generated from the table above. */
export function renderConfigurationMarkdown(): string {
  const rows = allVariables().map(([, , item]) => `| \`${item.env}\` | ${describeDefault(item)} | ${item.doc} |`);
  return [
    '# Configuration',
    '',
    'Generated from `platform/config.ts` by `npm run docs:config`; a test fails when this file is stale.',
    'Every variable is optional: the defaults are the embedded mode (`npm start`). An empty value counts as unset.',
    '',
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
