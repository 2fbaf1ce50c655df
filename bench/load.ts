import autocannon from 'autocannon';

/** The one load every figure of the run is measured with. */
export const CONNECTIONS = 50;
export const SECONDS = secondsFromEnvironment();
export const WARMUP_SECONDS = 2;

function secondsFromEnvironment(): number {
  const raw = process.env.BENCH_SECONDS;
  const seconds = raw === undefined || raw === '' ? 5 : Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`BENCH_SECONDS must be a positive number of seconds, not "${raw}"`);
  return seconds;
}

export interface Load {
  /** Path and query string. */
  path: string;
  method?: 'GET' | 'POST';
  /** A JSON body. */
  body?: string;
  /** Request headers (content-type is added for a body). */
  headers?: Readonly<Record<string, string>>;
  /** The status every answer must have, anything else counted as an error; unset: any 2xx. */
  expectStatus?: number;
}

export interface Figures {
  requestsPerSecond: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Socket errors (timeouts included) and answers of another status than expected (non-2xx by default). */
  errors: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function headersOf(load: Load): Record<string, string> {
  return { ...(load.body ? JSON_HEADERS : {}), ...load.headers };
}

/** Answers of another status than the load expects, from autocannon's count per status. */
function unexpectedAnswers(result: autocannon.Result, load: Load): number {
  if (load.expectStatus === undefined) return result.non2xx;
  return Object.entries(result.statusCodeStats ?? {})
    .filter(([status]) => Number(status) !== load.expectStatus)
    .reduce((sum, [, stats]) => sum + (stats.count ?? 0), 0);
}

function figuresOf(result: autocannon.Result, load: Load, requestsPerSecond: number): Figures {
  return { requestsPerSecond, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + unexpectedAnswers(result, load) };
}

function autocannonOptions(port: number, load: Load): autocannon.Options {
  return { url: `http://127.0.0.1:${port}${load.path}`, method: load.method ?? 'GET', connections: CONNECTIONS, headers: headersOf(load), ...(load.body ? { body: load.body } : {}) };
}

async function measure(port: number, load: Load, seconds: number): Promise<Figures> {
  const result = await autocannon({ ...autocannonOptions(port, load), duration: seconds });
  return figuresOf(result, load, result.requests.average);
}

/**
 * Exactly one request per entry of `eachRequest` (autocannon `amount`), each with that entry's
 * headers on top of the load's, for what can be sent once only (an x402 payment); no warm-up.
 * Req/s is the answers over the time from the start to the last answer (autocannon's own duration
 * of such a run ends on its next one-second tick).
 * `unexpected`: the first answer of another status than the load expects, status and body.
 */
export async function measureEach(port: number, load: Load, eachRequest: ReadonlyArray<Readonly<Record<string, string>>>, connections = CONNECTIONS): Promise<Figures & { unexpected?: string }> {
  let next = 0;
  let unexpected: string | undefined;
  let lastAnswer = 0;
  const expected = (status: number) => (load.expectStatus === undefined ? status >= 200 && status < 300 : status === load.expectStatus);
  const started = performance.now();
  const result = await autocannon({
    ...autocannonOptions(port, load),
    connections,
    amount: eachRequest.length,
    requests: [
      {
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...eachRequest[next++] } }),
        onResponse: (status, body) => {
          lastAnswer = performance.now();
          if (unexpected === undefined && !expected(status)) unexpected = `${status} ${body.slice(0, 200)}`;
        },
      },
    ],
  });
  const requestsPerSecond = lastAnswer > started ? (result.requests.total * 1000) / (lastAnswer - started) : 0;
  return { ...figuresOf(result, load, requestsPerSecond), ...(unexpected === undefined ? {} : { unexpected }) };
}

/** The progress line of a figure. */
export function progressFigures(label: string, figures: Figures): void {
  progress(label, `${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(figures.p50).padStart(4)} ms   p99 ${String(figures.p99).padStart(4)} ms   errors ${figures.errors}`);
}

/** One line of progress on stdout, while the run goes. */
export function progress(label: string, text: string): void {
  console.log(`  ${label.padEnd(72)} ${text}`);
}

/** Warm-up, then the measured run, of the same load; prints one progress line. */
export async function bench(label: string, port: number, load: Load): Promise<Figures> {
  await measure(port, load, WARMUP_SECONDS);
  const figures = await measure(port, load, SECONDS);
  progressFigures(label, figures);
  return figures;
}

/** One load on the rail against a baseline answering the same. */
export interface Comparison {
  label: string;
  /** Least acceptable rail / baseline ratio of req/s; undefined: a figure without a target. */
  target: number | undefined;
  rail: Figures;
  baseline: Figures;
}

/** Measures the rail, then the baseline, each under the same load (at its own path). */
export async function compare(label: string, target: number | undefined, rail: { name: string; port: number; load: Load }, baseline: { name: string; port: number; load: Load }): Promise<Comparison> {
  const railFigures = await bench(`${rail.name} ${label}`, rail.port, rail.load);
  const baselineFigures = await bench(`${baseline.name} ${label}`, baseline.port, baseline.load);
  return { label, target, rail: railFigures, baseline: baselineFigures };
}

/** One request of a load: status and body text. */
export async function send(port: number, load: Load): Promise<{ status: number; text: string; headers: Headers }> {
  const response = await fetch(`http://127.0.0.1:${port}${load.path}`, {
    method: load.method ?? 'GET',
    headers: headersOf(load),
    ...(load.body ? { body: load.body } : {}),
  });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

/**
 * Whether a GraphQL load is answered (200, data, no errors) before it is measured: autocannon
 * counts a GraphQL error answered 200 as a success. Undefined when it is; otherwise why not.
 */
export async function graphQLProblem(port: number, load: Load): Promise<string | undefined> {
  try {
    const { status, text } = await send(port, load);
    const body = JSON.parse(text) as { data?: unknown; errors?: Array<{ message?: string }> };
    if (status === 200 && body.data && !body.errors?.length) return undefined;
    return `HTTP ${status}: ${body.errors?.map((error) => error.message).join('; ') ?? 'no data'}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
