import { formatUsdc } from '../format.js';
import type { GraphQLError } from '../graphql.js';
import { isPaymentRequired, priceOf } from '../graphql.js';

/**
 * What a paid part costs (the price the server named when it refused it unpaid) and the button that
 * runs it with the session's API key. Without a key, it says where to enter one.
 */
export function PaidGate(props: { id: string; what: string; errors: readonly GraphQLError[]; apiKey: string; loading: boolean; onRun: () => void }) {
  if (!isPaymentRequired(props.errors)) return null;
  const price = priceOf(props.errors);
  const cost = price === undefined ? 'a price the server did not name' : formatUsdc(price);
  return (
    <div class="paid-gate" id={props.id}>
      <p>
        {props.what} is paid: <strong class="price">{cost}</strong> per run, charged to your API key (X-API-Key) or payable through x402.
      </p>
      {props.apiKey ? (
        <button type="button" onClick={props.onRun} disabled={props.loading}>
          Run with my API key ({cost})
        </button>
      ) : (
        <p class="hint">
          Enter an API key in <a href="#api-key">the API key field</a> to run it.
        </p>
      )}
    </div>
  );
}
