#!/usr/bin/env node
// Starts the forecast MCP tools on stdio (the TypeScript entry runs through tsx).
import { register } from 'tsx/esm/api';

register();
const { parseCommandLine } = await import('../platform/cli.ts');
parseCommandLine({
  usage: `usage: npm run --silent mcp:forecast   (the package's forecast-mcp bin)
Serves the five forecast MCP tools (commodity.heat_check, commodity.forecast, commodity.portfolio,
commodity.scenario, commodity.tcfd) over stdio: JSON-RPC on stdin and stdout, logs on stderr
(--silent keeps npm's banner off stdout). Over HTTP the same tools answer at POST /forecast/mcp.`,
});
await import('../gateway/forecast-mcp-stdio.ts');
