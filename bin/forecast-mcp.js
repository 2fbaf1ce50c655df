#!/usr/bin/env node
// Starts the forecast MCP tools on stdio (the TypeScript entry runs through tsx).
import { register } from 'tsx/esm/api';

register();
await import('../gateway/forecast-mcp-stdio.ts');
