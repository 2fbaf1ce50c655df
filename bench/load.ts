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
}

export interface Figures {
  requestsPerSecond: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Socket errors (timeouts included) and non-2xx answers. */
  errors: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

async function measure(port: number, load: Load, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${load.path}`,
    method: load.method ?? 'GET',
    connections: CONNECTIONS,
    duration: seconds,
    ...(load.body ? { body: load.body, headers: JSON_HEADERS } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** One line of progress on stdout, while the run goes. */
export function progress(label: string, text: string): void {
  console.log(`  ${label.padEnd(72)} ${text}`);
}

/** Warm-up, then the measured run, of the same load; prints one progress line. */
export async function bench(label: string, port: number, load: Load): Promise<Figures> {
  await measure(port, load, WARMUP_SECONDS);
  const figures = await measure(port, load, SECONDS);
  progress(label, `${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s   p50 ${String(figures.p50).padStart(4)} ms   p99 ${String(figures.p99).padStart(4)} ms   errors ${figures.errors}`);
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
export async function compare(
  label: string,
  target: number | undefined,
  rail: { name: string; port: number; load: Load },
  baseline: { name: string; port: number; load: Load },
): Promise<Comparison> {
  const railFigures = await bench(`${rail.name} ${label}`, rail.port, rail.load);
  const baselineFigures = await bench(`${baseline.name} ${label}`, baseline.port, baseline.load);
  return { label, target, rail: railFigures, baseline: baselineFigures };
}

/** One request of a load: status and body text. */
export async function send(port: number, load: Load): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${load.path}`, {
    method: load.method ?? 'GET',
    ...(load.body ? { body: load.body, headers: JSON_HEADERS } : {}),
  });
  return { status: response.status, text: await response.text() };
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
