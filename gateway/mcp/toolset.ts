import { documentedCapabilities, documentedOperations } from '../../platform/capabilities.js';
import { AppError } from '../../platform/errors.js';
import type { HttpServer } from '../../platform/http.js';
import { declaredMcpParts, type McpPart } from '../../platform/mcp-parts.js';
import { dpxTools } from './dpx-tools.js';
import { graphqlTools } from './graphql-tools.js';
import { deriveRouteTools, routeTool } from './route-tools.js';
import type { RailTool } from './tool.js';

/** The tools of one MCP endpoint, by name. */
export interface Toolset {
  tools: readonly RailTool[];
  byName: ReadonlyMap<string, RailTool>;
}

export interface Toolsets {
  /** POST /mcp and stdio: every tool. */
  all: Toolset;
  /** Each declared part's endpoint (/forecast/mcp, /integration/mcp): its own tools. */
  parts: ReadonlyMap<string, Toolset>;
}

function toolsetOf(tools: readonly RailTool[]): Toolset {
  const byName = new Map<string, RailTool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
    byName.set(tool.name, tool);
  }
  return { tools, byName };
}

/** A part's tools: each of its names on its documented route, with the title and schema it publishes (those whose route this process does not serve are left out). */
async function partTools(app: HttpServer, part: McpPart): Promise<RailTool[]> {
  const operations = await documentedOperations(app);
  return part.tools.flatMap((tool) => {
    const operation = operations.find((candidate) => candidate.key === tool.route);
    if (!operation) return [];
    return [
      routeTool(operation, operations, {
        name: tool.name,
        description: tool.description,
        ...(tool.title ? { title: tool.title } : {}),
        ...(tool.inputSchema ? { inputSchema: tool.inputSchema } : {}),
      }),
    ];
  });
}

/**
 * Every tool of the process (decision 0080): one per documented capability of the routes it
 * serves, the names the services promised (their parts), the dpx-mcp names (decision 0081) and,
 * where /graphql is served, the two graph tools. A gateway-only process has the graph tools alone.
 */
export async function buildToolsets(app: HttpServer, options: { introspection: boolean }): Promise<Toolsets> {
  const capabilities = await documentedCapabilities(app);
  const parts = new Map<string, Toolset>();
  const aliases: RailTool[] = [];
  for (const part of declaredMcpParts(app)) {
    const tools = await partTools(app, part);
    parts.set(part.path, toolsetOf(tools));
    aliases.push(...tools);
  }
  const served = new Set((await documentedOperations(app)).map((operation) => operation.key));
  const graph = app.hasRoute({ method: 'POST', url: '/graphql' }) ? graphqlTools(options) : [];
  return { all: toolsetOf([...deriveRouteTools(capabilities), ...aliases, ...dpxTools(served), ...graph]), parts };
}

/** The refusal of a name no tool has, in the error body of the endpoint's service. */
export function unknownTool(app: HttpServer, url: string, name: string) {
  return app.errorShapes.answerFor(url, new AppError('GEN_ERR_NOT_FOUND', { message: `No tool named ${JSON.stringify(name.slice(0, 64))}.` })).body;
}
