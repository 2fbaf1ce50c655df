import type { Outcome } from './records.js';

/** How long a soak client waits for one answer: longer than the cluster's REQUEST_TIMEOUT_MS (15 s), so the server's 503 comes first. */
export const CLIENT_TIMEOUT_MS = 20_000;

export interface Answer {
  outcome: Outcome;
  startedAt: number;
  endedAt: number;
  headers: Headers | undefined;
  /** The body as text ('' without an answer). */
  text: string;
}

export interface SoakRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
}

/** One request, never thrown: a refused or cut connection is `network`, the client's bound `timeout`. */
export async function send(url: string, request: SoakRequest = {}): Promise<Answer> {
  const startedAt = Date.now();
  try {
    const response = await fetch(url, {
      method: request.method ?? (request.json === undefined ? 'GET' : 'POST'),
      headers: { ...(request.json === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
      ...(request.json === undefined ? {} : { body: JSON.stringify(request.json) }),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const text = await response.text();
    return { outcome: response.status, startedAt, endedAt: Date.now(), headers: response.headers, text };
  } catch (error) {
    const timeout = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { outcome: timeout ? 'timeout' : 'network', startedAt, endedAt: Date.now(), headers: undefined, text: '' };
  }
}

/** The parsed body of an answer, or undefined when it is not JSON. */
export function parsedBody(answer: Answer): unknown {
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return undefined;
  }
}

/** The JSON object of an answer, or undefined when it is none. */
export function jsonOf(answer: Answer): Record<string, unknown> | undefined {
  const value = parsedBody(answer);
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The error code of a refusal ({code}, GraphQL's extensions.code, or an x402 402's error), else the body's start. */
export function problemOf(answer: Answer): string {
  if (typeof answer.outcome !== 'number') return answer.outcome;
  const body = jsonOf(answer);
  const errors = body?.errors as Array<{ extensions?: { code?: unknown } }> | undefined;
  const code = body?.code ?? errors?.[0]?.extensions?.code ?? (body?.x402Version === undefined ? undefined : `x402 ${String(body.error)}`);
  return typeof code === 'string' ? code : answer.text.slice(0, 80);
}
