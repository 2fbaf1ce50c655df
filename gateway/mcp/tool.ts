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
  /**
   * Whether an error answer of this status may be structured content: always without an
   * outputSchema; with one, only where the schema admits the body (its documented error
   * responses), since MCP clients validate any structured content against it (decision 0080).
   */
  structuredError(status: number): boolean;
  run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>;
}

/** A tool result carrying `value`: as structured content when it is an object (MCP allows no other) and not told otherwise, and always as JSON text. */
export function toolResult(value: unknown, options: { isError?: boolean; meta?: Record<string, unknown> | undefined; structured?: boolean } = {}): CallToolResult {
  const structured = options.structured !== false && typeof value === 'object' && value !== null && !Array.isArray(value);
  return {
    content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
    ...(options.isError ? { isError: true } : {}),
    ...(options.meta && Object.keys(options.meta).length > 0 ? { _meta: options.meta } : {}),
  };
}

/** For tools without an outputSchema: every error body may be structured. */
export const anyStructuredError = (): boolean => true;
