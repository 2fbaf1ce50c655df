import type { EIP1193Provider } from 'viem';

/**
 * The node answers one request at a time, so an outside caller's request delays the rail's own
 * (decision 0051). The platform's own requests (settlements, x402, reads) go through `own` and are
 * counted; an outside request (POST /rpc) waits for `quiet()`: until none of the platform's has
 * been in flight for QUIET_MS. The rail's steps of one settlement follow each other within
 * milliseconds (estimate, fees, send, receipt), so an outside call is not let in between them: a
 * settlement waits at most for the one outside call already running when it began.
 */
export const QUIET_MS = 50;

export interface OwnFirst {
  own: EIP1193Provider;
  /** Resolves once the platform's own requests have left the node alone for QUIET_MS; rejects when `signal` aborts first. */
  quiet(signal: AbortSignal): Promise<void>;
}

export function ownFirst(provider: EIP1193Provider, quietMs = QUIET_MS): OwnFirst {
  let inFlight = 0;
  let lastEndedAt = -Infinity;
  const own = {
    async request(call: Parameters<EIP1193Provider['request']>[0]): Promise<unknown> {
      inFlight += 1;
      try {
        return await provider.request(call);
      } finally {
        inFlight -= 1;
        lastEndedAt = performance.now();
      }
    },
    on: provider.on.bind(provider),
    removeListener: provider.removeListener.bind(provider),
  } as unknown as EIP1193Provider;

  function quiet(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const check = () => {
        const wait = inFlight > 0 ? quietMs : lastEndedAt + quietMs - performance.now();
        if (wait > 0) {
          timer = setTimeout(check, wait);
          return;
        }
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      check();
    });
  }

  return { own, quiet };
}
