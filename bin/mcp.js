#!/usr/bin/env node
// Starts the one MCP server of the rail on stdio (the TypeScript entry runs through tsx).
import { register } from 'tsx/esm/api';

register();
const { parseCommandLine } = await import('../platform/cli.ts');
parseCommandLine({
  usage: `usage: npm run --silent mcp
Serves every tool of the rail (one per documented capability, the forecast's commodity.* and the
integration manifest's tools, the dpx-mcp names, graphql.schema and graphql.execute) over stdio:
JSON-RPC on stdin and stdout, logs on stderr (--silent keeps npm's banner off stdout). The rail
runs in this process on the embedded defaults, in DATA_DIR (one process at a time), or on
DATABASE_URL. Credentials sent with every tool call: RAIL_API_KEY (X-API-Key), RAIL_INSTITUTION_KEY
(Authorization: Bearer), RAIL_AGENT_ID and RAIL_AGENT_KEY. Over HTTP the same tools answer at
POST /mcp. docs/mcp.md says how to point an MCP client at either.`,
});
await import('../gateway/mcp/stdio.ts');
