import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type HttpServer, publicOriginOf } from '../../platform/http.js';

/**
 * Discovery of the MCP server before connecting (decision 0080 §7), as the MCP Server Card
 * extension (SEP-2127, modelcontextprotocol/experimental-ext-server-card) has it now:
 * 1. the Server Card (schema v2, media type application/mcp-server-card+json) at the location MCP
 *    reserves, `<streamable-http-url>/server-card`: GET /mcp/server-card;
 * 2. the site's MCP Catalog at /.well-known/mcp/catalog.json, pointing at that card;
 * 3. the same card at the two well-known paths clients of earlier drafts read:
 *    /.well-known/mcp.json (the path issue 25 names) and /.well-known/mcp/server-card.json.
 * Public metadata only (no credential), readable from any origin, cacheable for an hour.
 */

const CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';
const CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
const SERVER_SLUG = 'stablecoin-rail';

/** The card's reverse-DNS name: `com.example/stablecoin-rail` for example.com; a bare host or an address as it is. */
function cardName(hostname: string): string {
  const labels = hostname.split('.');
  const reversible = labels.length > 1 && /[a-z]/i.test(labels.at(-1) ?? '');
  const namespace = (reversible ? labels.reverse().join('.') : hostname).replace(/[^A-Za-z0-9.-]/g, '-');
  return `${namespace || 'localhost'}/${SERVER_SLUG}`;
}

function serverCard(origin: string, path: string, server: { name: string; version: string }) {
  return {
    $schema: CARD_SCHEMA,
    name: cardName(new URL(origin).hostname),
    version: server.version,
    title: 'Stablecoin settlement rail',
    description: 'Fees, compliance, payments, climate forecasts and paid intelligence of the rail as MCP tools.',
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}${path}`,
        supportedProtocolVersions: [...new Set([LATEST_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS])],
        headers: [
          { name: 'X-API-Key', description: 'API key: pays for paid tools instead of an x402 payment, and counts against its limit', isRequired: false, isSecret: true },
          { name: 'Authorization', description: 'Bearer <institution key>: the integration API (payments) as that institution', isRequired: false, isSecret: true },
          { name: 'X-Agent-Id', description: 'the settling agent (agt_...), with X-Agent-Key', isRequired: false, isSecret: false },
          { name: 'X-Agent-Key', description: "the agent owner's key", isRequired: false, isSecret: true },
        ],
      },
    ],
    _meta: {
      'io.github.stablecoin-rail/payments': 'Paid tools take an x402 payment in _meta["x402/payment"] (x402 MCP transport) or an X-API-Key header.',
      'io.github.stablecoin-rail/stdio': 'npm run --silent mcp (docs/mcp.md)',
    },
  };
}

function publicHeaders(reply: FastifyReply, type: string): FastifyReply {
  return reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=3600').type(`${type}; charset=utf-8`);
}

export function registerMcpDiscovery(app: HttpServer, options: { path: string; server: { name: string; version: string } }): void {
  const hidden = { schema: { hide: true } };
  const card = async (request: FastifyRequest, reply: FastifyReply) => publicHeaders(reply, CARD_MEDIA_TYPE).send(serverCard(publicOriginOf(request), options.path, options.server));
  app.get(`${options.path}/server-card`, hidden, card);
  app.get('/.well-known/mcp.json', hidden, card);
  app.get('/.well-known/mcp/server-card.json', hidden, card);
  app.get('/.well-known/mcp/catalog.json', hidden, async (request, reply) => {
    const origin = publicOriginOf(request);
    return publicHeaders(reply, 'application/json').send({
      specVersion: 'draft',
      entries: [{ identifier: `urn:air:${new URL(origin).hostname}:${SERVER_SLUG}`, displayName: 'Stablecoin settlement rail', type: CARD_MEDIA_TYPE, url: `${origin}${options.path}/server-card` }],
    });
  });
}
