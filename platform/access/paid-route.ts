import type { FastifyRequest } from 'fastify';
import { TOKEN_DECIMALS } from '../chain/token.js';
import { type HttpServer, publicOriginOf } from '../http.js';
import type { Offer } from './admission.js';
import { X402_NETWORK, X402_VERSION } from './x402.js';
import { x402DiscoverySchema } from './x402-schemas.js';

/** The URL a client signs a payment for: the route at the server's public origin, without its query. */
export function resourceOf(request: FastifyRequest): string {
  return `${publicOriginOf(request)}${request.url.split('?')[0] ?? ''}`;
}

/**
 * A route sold at an amount the client chooses within bounds (Document 2 §2, the entry of POST
 * /stream/open): the route charges what the request asks for; the document lists the bounds.
 */
export interface VariableOffer {
  minUsdc: number;
  maxUsdc: number;
  unitTypes: readonly string[];
  description: string;
}

/**
 * The priced routes of one service, and its x402 discovery document generated from them: a
 * route takes its offer from here, so the document cannot list a price the route does not charge.
 */
export function createPriceList(options: { prefix: string; facilitatorUrl?: string | undefined }) {
  const priced: Array<{ method: string; path: string; offer: Offer } | { method: string; path: string; variable: VariableOffer }> = [];
  return {
    /** Declares `METHOD path` (full path, prefix included) as sold at `offer`, and returns the offer. */
    price(method: string, path: string, offer: Offer): Offer {
      priced.push({ method, path, offer });
      return offer;
    },
    /** Declares `METHOD path` (full path, prefix included) as sold at a variable amount, and returns its terms. */
    priceVariable(method: string, path: string, variable: VariableOffer): VariableOffer {
      priced.push({ method, path, variable });
      return variable;
    },
    /** GET <prefix>/.well-known/x402: {version, endpoints keyed by "<METHOD> <path>"} (Document 2 §2, decision 0012). */
    registerDiscovery(app: HttpServer) {
      const schema = { summary: 'x402 payment discovery: every priced route with its price', response: { 200: x402DiscoverySchema } };
      app.get(`${options.prefix}/.well-known/x402`, { schema }, async (request) => ({
        version: X402_VERSION,
        endpoints: Object.fromEntries(
          priced.map((route) => {
            const facilitator = options.facilitatorUrl ?? publicOriginOf(request);
            const key = `${route.method} ${route.path.slice(options.prefix.length) || '/'}`;
            if ('variable' in route) {
              const { minUsdc, maxUsdc, unitTypes, description } = route.variable;
              return [key, { variableAmount: true, minUsdc, maxUsdc, unitTypes: [...unitTypes], network: X402_NETWORK, facilitator, description }];
            }
            const { offer } = route;
            return [
              key,
              {
                price: { amount: offer.price.amount.toString(), currency: 'USDC', decimals: TOKEN_DECIMALS },
                network: X402_NETWORK,
                facilitator,
                description: offer.price.description,
              },
            ];
          }),
        ),
      }));
    },
  };
}

export type PriceList = ReturnType<typeof createPriceList>;
