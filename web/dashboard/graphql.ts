// The dashboard's one way to the server: POST /graphql with JSON (no REST path, no private route).
// A view sends one request; the answer may be partial (data beside errors naming their paths), and
// every part of a view is drawn from what answered.

export interface GraphQLError {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: { code?: string; accepts?: ReadonlyArray<{ maxAmountRequired?: string; description?: string }>; [key: string]: unknown };
}

export interface GraphQLAnswer<T> {
  data: T | null;
  errors: GraphQLError[];
}

/** Who the request speaks for: an API key (paid parts) or an institution key (its payments); nothing for free parts. */
export interface Credentials {
  apiKey?: string;
  institutionKey?: string;
}

export async function requestGraphQL<T>(query: string, variables: Record<string, unknown>, credentials: Credentials = {}): Promise<GraphQLAnswer<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (credentials.apiKey) headers['x-api-key'] = credentials.apiKey;
  if (credentials.institutionKey) headers.authorization = `Bearer ${credentials.institutionKey}`;
  let response: Response;
  try {
    response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }), credentials: 'omit' });
  } catch (cause) {
    return { data: null, errors: [{ message: `The server could not be reached (${cause instanceof Error ? cause.message : 'network error'}).` }] };
  }
  const body = (await response.json().catch(() => null)) as { data?: T | null; errors?: GraphQLError[] } | null;
  if (!body) return { data: null, errors: [{ message: `The server answered ${response.status} without a GraphQL body.` }] };
  return { data: body.data ?? null, errors: body.errors ?? [] };
}

function startsWith(path: ReadonlyArray<string | number> | undefined, prefix: readonly string[]): boolean {
  return path !== undefined && prefix.every((segment, index) => path[index] === segment);
}

/** The errors about a part: those whose path lies at or under it. */
export function errorsAt(errors: readonly GraphQLError[], prefix: readonly string[]): GraphQLError[] {
  return errors.filter((error) => startsWith(error.path, prefix));
}

/** Errors that name no path (a request refused as a whole, an unreachable subgraph the gateway could not place). */
export function errorsWithoutPath(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.filter((error) => !error.path || error.path.length === 0);
}

/**
 * What the refused paid fields among `errors` cost together, from their GEN_ERR_PAYMENT_REQUIRED
 * errors' x402 requirements (USDC base units); undefined when one of them names no price.
 */
export function priceOf(errors: readonly GraphQLError[]): bigint | undefined {
  let total = 0n;
  for (const error of errors.filter((candidate) => candidate.extensions?.code === 'GEN_ERR_PAYMENT_REQUIRED')) {
    const amount = error.extensions?.accepts?.[0]?.maxAmountRequired;
    if (!amount || !/^\d+$/.test(amount)) return undefined;
    total += BigInt(amount);
  }
  return total;
}

export const isPaymentRequired = (errors: readonly GraphQLError[]): boolean => errors.some((error) => error.extensions?.code === 'GEN_ERR_PAYMENT_REQUIRED');
