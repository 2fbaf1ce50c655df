import type { RequestContext } from '../platform/request-context.js';

/** The gateway's per-request context: the platform request context, handed to every subgraph fetch. */
export interface GatewayContext {
  request: RequestContext;
}
