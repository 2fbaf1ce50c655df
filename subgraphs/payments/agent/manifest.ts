import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { httpRoutes, publicOriginOf } from '../../../platform/http.js';
import { AGENT_PREFIX, INTEGRATION_API_VERSION } from '../shared/api.js';
import { settleBodySchema, settleHeadersSchema } from './inputs.js';

/**
 * GET {agent_url}/manifest (decision 0056): the settlement agent's discovery document, which
 * clients of the real product call once. Document 2 shows no manifest for the agent; this one is
 * built like the integration API's (server, tools with JSON Schemas generated from the zod
 * schemas the route reads with, so it cannot drift from what the route accepts) plus what an
 * agent needs before settling: how a settlement is authorised and where the AP2 capability
 * document is. Open, like /agent/.well-known/ap2.json: it describes, and reveals nothing of
 * anyone's agents or mandates.
 */

export const AGENT_MANIFEST_SCHEMA = 'agent-manifest/1.0';
export const AGENT_MANIFEST_SERVER = { name: 'stablecoin-rail-settlement-agent', version: INTEGRATION_API_VERSION } as const;

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** The manifest for an agent URL (`<origin>/agent`); its paths are absolute URLs under it. */
export function buildAgentManifest(agentUrl: string) {
  return {
    schema: AGENT_MANIFEST_SCHEMA,
    server: AGENT_MANIFEST_SERVER,
    description:
      'Settlement agent of the stablecoin settlement rail: settles a transfer under an agent mandate (X-Agent-Id, verified live) or an AP2 payment mandate (body.mandate); a mandate violation holds the settlement (Document 2 §4).',
    agentUrl,
    endpoints: {
      manifest: `GET ${agentUrl}/manifest`,
      settle: `POST ${agentUrl}/settle`,
      capabilities: `GET ${agentUrl}/.well-known/ap2.json`,
      openapi: `GET ${agentUrl}/openapi.json`,
    },
    authentication: {
      agentMandate:
        "header X-Agent-Id with X-Agent-Key (the owner's agentKey issued at registration, decision 0048): the registered agent, whose mandate the agent verifies live at settlement time (Document 2 §5); the settlement is paid from the owner's deposits for the agent (GET /agent/funds, decision 0049), and a body.mandate given with it is checked too",
      ap2Mandate:
        "body.mandate alone: an AP2 payment mandate (SD-JWT VC, ES256) from an issuer of the capability document's trusted issuers, settling once; the settlement is paid from that issuer's deposits, credited by the operator (decision 0049 §9)",
    },
    tools: [
      {
        name: 'agent.settle',
        title: `POST ${AGENT_PREFIX}/settle`,
        description:
          "Settle amount from sourceCurrency to destinationCurrency at recipientAddress, under the agent's mandate or an AP2 payment mandate; answers the settlement, or the hold when a mandate limit is exceeded.",
        inputSchema: jsonSchemaOf(settleBodySchema),
        headersSchema: jsonSchemaOf(settleHeadersSchema),
      },
    ],
  };
}

const manifestResponseSchema = z.object({
  schema: z.string(),
  server: z.object({ name: z.string(), version: z.string() }),
  description: z.string(),
  agentUrl: z.string(),
  endpoints: z.record(z.string(), z.string()),
  authentication: z.record(z.string(), z.string()),
  tools: z.array(z.object({ name: z.string(), title: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()), headersSchema: z.record(z.string(), z.unknown()) })),
});

/** GET /agent/manifest: open, thin. */
export function agentManifestRoutes(): FastifyPluginAsync {
  return httpRoutes(async (app) => {
    app.get(
      `${AGENT_PREFIX}/manifest`,
      {
        schema: {
          summary: "The settlement agent's manifest: its endpoints, how a settlement is authorised, the settle tool's JSON Schemas; call once and cache",
          response: { 200: manifestResponseSchema },
        },
      },
      async (request) => buildAgentManifest(`${publicOriginOf(request)}${AGENT_PREFIX}`),
    );
  });
}
