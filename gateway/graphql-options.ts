import type { ApolloServerOptions, BaseContext } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { fastifyApolloDrainPlugin } from '@as-integrations/fastify';
import { errorReportingPlugin, formatErrorForClients, limitPlugins, limitValidationRules, refuseServiceSdlRule, responseSizeLimit } from '../platform/graphql-guard.js';
import type { HttpServer } from '../platform/http.js';
import type { BaseServices } from '../platform/subgraph.js';
import { answerBrowsersWithExplorer } from '../web/explorer.js';
import { WEB_SECURITY_HEADERS, type WebApp } from '../web/serve.js';

export interface GraphQLServerRole {
  role: 'gateway' | 'subgraph';
  app: HttpServer;
}

/** The options every ApolloServer of ours shares, gateway and subgraph endpoints alike. */
export function createGraphQLServerOptions<Context extends BaseContext>(
  base: BaseServices,
  { app, role }: GraphQLServerRole,
): Omit<ApolloServerOptions<Context>, 'schema' | 'gateway' | 'typeDefs' | 'resolvers'> {
  const production = base.config.server.production;
  const limits = base.config.gateway;
  return {
    formatError: (formatted, error) => formatErrorForClients(formatted, error, production),
    parseOptions: { maxTokens: limits.maxTokens },
    validationRules: [...limitValidationRules(limits), ...(production && role === 'subgraph' ? [refuseServiceSdlRule] : [])],
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: production,
    introspection: !production,
    allowBatchedHttpRequests: false,
    // Apollo's own SIGTERM handler stops the server and re-raises the signal, killing the process
    // mid-drain; gateway/main.ts owns shutdown.
    stopOnTerminationSignals: false,
    // Inline traces (ftv1) would hand every caller of a subgraph endpoint its resolver timings.
    // Apollo's landing page loads its Sandbox from a CDN (a blank page offline): a browser gets our explorer instead (graphQLRouteOptions).
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      fastifyApolloDrainPlugin(app),
      errorReportingPlugin(base.logger, role),
      ...limitPlugins(limits),
      ...(role === 'subgraph' ? [ApolloServerPluginInlineTraceDisabled()] : []),
    ],
  } as Omit<ApolloServerOptions<Context>, 'schema' | 'gateway' | 'typeDefs' | 'resolvers'>;
}

/**
 * Route options of a GraphQL endpoint: a browser's GET gets the explorer's page (web/explorer.ts),
 * under the web apps' strict CSP, which the JSON answers carry too; the response size limit applies
 * to the body as serialised; the body and query string are checked by the GraphQL guard (variables,
 * literals), which answers with GraphQL errors and their codes.
 */
export function graphQLRouteOptions(base: BaseServices, explorer: WebApp) {
  return {
    helmet: WEB_SECURITY_HEADERS,
    preHandler: answerBrowsersWithExplorer(explorer),
    onSend: responseSizeLimit(base.config.gateway),
    config: { inputCheckedBy: 'graphql' },
  } as const;
}
