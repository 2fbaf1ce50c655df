import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { HttpServer } from '../../platform/http.js';
import type { JsonSchema } from './json-schema.js';

/** How one tools/call reaches the routes: the process, and what the caller presented. */
export interface ToolCall {
  app: HttpServer;
  /** The caller's credential headers, sent with every route the call runs (never X-PAYMENT: a payment is one call's, in its _meta). */
  headers: Readonly<Record<string, string>>;
  /** The X-PAYMENT value of this call (from `_meta["x402/payment"]`). */
  payment?: string | undefined;
}

/** A tool of the one server: its listing and how it runs. */
export interface RailTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object' } & JsonSchema;
  outputSchema?: ({ type: 'object' } & JsonSchema) | undefined;
  annotations: ToolAnnotations;
  /** A URL of the service whose error body the tool's refused arguments get. */
  errorUrl: string;
  run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>;
}

/** A tool result carrying `value`: as structured content when it is an object (MCP allows no other), and always as JSON text. */
export function toolResult(value: unknown, options: { isError?: boolean; meta?: Record<string, unknown> | undefined } = {}): CallToolResult {
  return {
    content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
    ...(typeof value === 'object' && value !== null && !Array.isArray(value) ? { structuredContent: value as Record<string, unknown> } : {}),
    ...(options.isError ? { isError: true } : {}),
    ...(options.meta && Object.keys(options.meta).length > 0 ? { _meta: options.meta } : {}),
  };
}
