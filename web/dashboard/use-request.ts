import { useCallback, useRef, useState } from 'preact/hooks';
import { type Credentials, type GraphQLAnswer, requestGraphQL } from './graphql.js';

export interface RequestState<T> {
  answer: GraphQLAnswer<T> | undefined;
  loading: boolean;
  /** Sends the view's one request; an answer arriving after a newer request was sent is dropped. */
  run: (query: string, variables?: Record<string, unknown>, credentials?: Credentials) => Promise<void>;
}

export function useRequest<T>(): RequestState<T> {
  const [answer, setAnswer] = useState<GraphQLAnswer<T> | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const run = useCallback(async (query: string, variables: Record<string, unknown> = {}, credentials: Credentials = {}) => {
    const ticket = ++latest.current;
    setLoading(true);
    const result = await requestGraphQL<T>(query, variables, credentials);
    if (ticket !== latest.current) return;
    setAnswer(result);
    setLoading(false);
  }, []);
  return { answer, loading, run };
}
