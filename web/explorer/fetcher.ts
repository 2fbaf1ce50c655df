import type { GraphiQLProps } from 'graphiql';

type Fetcher = GraphiQLProps['fetcher'];
type FetcherResult = Awaited<ReturnType<Fetcher>>;

/** The headers editor's object without the entries left empty: the prefilled `"X-API-Key": ""` is an example until filled in. */
function filledHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const filled: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== '' && value !== null && value !== undefined) filled[name] = String(value);
  return filled;
}

/**
 * POSTs each operation as JSON to `endpoint` on this origin (the page's CSP allows no other), with
 * the headers of GraphiQL's headers editor. An answer that is not JSON becomes a GraphQL error.
 */
export function createFetcher(endpoint: string): Fetcher {
  return async (params, options): Promise<FetcherResult> => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { ...filledHeaders(options?.headers), 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify(params),
      credentials: 'same-origin',
    });
    const text = await response.text();
    try {
      return JSON.parse(text) as FetcherResult;
    } catch {
      return { errors: [{ message: `HTTP ${response.status}: the answer is not JSON (${text.slice(0, 200)})` }] } as unknown as FetcherResult;
    }
  };
}
